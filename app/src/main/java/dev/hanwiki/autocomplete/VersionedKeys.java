package dev.hanwiki.autocomplete;

import dev.hanwiki.cache.ShardedRedis;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import java.time.Duration;
import java.util.List;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys of whole versions ({@code hw:ac:<version>:...}): which version a key belongs to, and
 * deleting versions after a rebuild switched away from them or abandoned one. A shard that
 * cannot be reached is skipped; the next rebuild removes what is left there.
 */
final class VersionedKeys {

    private static final Logger log = LoggerFactory.getLogger(VersionedKeys.class);
    /** Tries per page, with growing waits: a command can time out under load. */
    private static final int ATTEMPTS = 10;

    private VersionedKeys() {
    }

    /** Deletes every versioned key whose version matches, shard by shard; returns how many went. */
    static long delete(ShardedRedis redis, LongPredicate doomed) {
        long removed = 0;
        for (String shard : redis.shardNames()) {
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                ScanCursor from = cursor;
                KeyScanCursor<String> page = null;
                for (int attempt = 1; attempt <= ATTEMPTS && page == null; attempt++) {
                    page = redis.onShard(shard, c -> c.scan(from, ScanArgs.Builder.matches(TitleStore.ROOT + "*").limit(500)),
                            (KeyScanCursor<String>) null).join();
                    if (page == null) {
                        sleep(Duration.ofMillis(100L * attempt));
                    }
                }
                if (page == null) {
                    log.warn("Autocomplete cleanup skipped the rest of {} (unavailable); the next rebuild removes them", shard);
                    break;
                }
                List<String> keys = page.getKeys().stream().filter(k -> {
                    long v = versionOf(k);
                    return v > 0 && doomed.test(v);
                }).toList();
                if (!keys.isEmpty()) {
                    String[] batch = keys.toArray(String[]::new);
                    Long gone = null;
                    for (int attempt = 1; attempt <= ATTEMPTS && gone == null; attempt++) {
                        gone = redis.onShard(shard, c -> c.unlink(batch), (Long) null).join();
                    }
                    removed += gone == null ? 0 : gone;
                }
                cursor = page;
            } while (!cursor.isFinished());
        }
        return removed;
    }

    /** The version in {@code hw:ac:<version>:...}, or 0 for the pointer and lock keys. */
    static long versionOf(String key) {
        int start = TitleStore.ROOT.length();
        int end = key.indexOf(':', start);
        if (end < 0) {
            return 0;
        }
        try {
            return Long.parseLong(key, start, end, 10);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
