package dev.hanwiki.post;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hanwiki.cache.SharedEvictions;
import dev.hanwiki.cache.TieredCache;
import dev.hanwiki.cache.TieredCaches;
import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.platform.Paging;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The cached reads of posts: details (region {@code post}) and the first list pages (region
 * {@code post-list}), and how the change stream invalidates them (ADR 0032).
 *
 * <p>On this node, each {@link PostsIndexed} batch evicts the changed details from L1 (unless
 * the copy held already shows the change) and, if
 * any post was created, edited, moved or deleted (not just liked or viewed), every list page.
 * It also records what each changed post now is (version, counters, deleted), so a value from
 * L2 or from a replica that is older than what the stream announced is never cached: an L2
 * value is then a miss, a replica answer is served but not stored. Once per change for the
 * cluster, {@link #evictShared} drops the same entries from L2.
 */
@Component
class PostCaches implements SharedEvictions {

    private static final Logger log = LoggerFactory.getLogger(PostCaches.class);
    /** More posts than can be created within a negative TTL, by far. */
    static final long UPCOMING_IDS = 100_000;

    /** What the change stream last said about a post. */
    private record Announced(boolean deleted, long version, long likeCount, long viewCount) {
    }

    /** A cached list page and when its load began (a page loaded before a list change is stale). */
    record CachedPage(long loadedAtMillis, List<PostSummary> rows, boolean hasNext) {
    }

    private final PostCacheSettings settings;
    private final TieredCache<PostDetail> details;
    private final TieredCache<CachedPage> lists;
    private final Cache<Long, Announced> announced;
    private final Clock clock;
    private volatile long listsChangedAtMillis;
    /** The highest post id this node's stream has shown; ids just above it are about to appear. */
    private final java.util.concurrent.atomic.AtomicLong newestId = new java.util.concurrent.atomic.AtomicLong();

    PostCaches(PostCacheSettings settings, TieredCaches caches, Clock clock) {
        this.settings = settings;
        this.details = caches.region(settings.detailRegion(), PostDetail.class);
        this.lists = caches.region(settings.listRegion(), CachedPage.class);
        // Remembered at least as long as an L2 entry lives, so a stale L2 entry is always caught.
        this.announced = Caffeine.newBuilder().expireAfterWrite(settings.detailL2Ttl().plusSeconds(30))
                .maximumSize(500_000).build();
        this.clock = clock;
        this.listsChangedAtMillis = clock.millis();
    }

    /**
     * The shared part of a post's detail (no per-reader fields), or empty for a 404, with the
     * like and view counts the stream announced last laid over the cached copy: counter-only
     * changes (every view flush) then need no eviction.
     */
    Optional<PostDetail> detail(long id, java.util.function.LongFunction<Optional<PostDetail>> origin) {
        Optional<PostDetail> cached = details.await(Long.toString(id), k -> origin.apply(id), value -> isCurrent(id, value));
        Announced known = announced.getIfPresent(id);
        if (known == null || known.deleted() || cached.isEmpty() || cached.get().version() != known.version()) {
            return cached;
        }
        PostDetail post = cached.get();
        return Optional.of(post.withCounters(known.likeCount(), Math.max(post.viewCount(), known.viewCount())));
    }

    /**
     * A list page through the cache. {@code origin} loads from the replica, or (second argument
     * true) from the primary while a recent list change may not have reached the replica.
     */
    CachedPage page(Long categoryId, Paging paging, PageLoader origin) {
        String key = listKey(categoryId, paging.page(), paging.size());
        return lists.await(key, k -> {
            long start = clock.millis();
            boolean recentChange = start - listsChangedAtMillis < settings.lagGuard().toMillis();
            return Optional.of(origin.load(recentChange, start));
        }, value -> value.map(page -> page.loadedAtMillis() >= listsChangedAtMillis).orElse(true)).orElseThrow();
    }

    @FunctionalInterface
    interface PageLoader {
        CachedPage load(boolean fromPrimary, long startedAtMillis);
    }

    /** Node-local: runs on the indexer thread after each applied batch; quick, never throws. */
    @EventListener
    void onIndexed(PostsIndexed indexed) {
        try {
            boolean listsChanged = false;
            for (PostsIndexed.Change change : indexed.changes()) {
                Announced now = new Announced(change.deleted(), change.version(), change.likeCount(), change.viewCount());
                newestId.accumulateAndGet(change.postId(), Math::max);
                // Only the indexer thread writes here, and it never hands us an older version.
                announced.put(change.postId(), now);
                if (!change.countersOnly()) {
                    // A like or a view flush evicts nothing: details and list rows get the
                    // announced counts laid over them when read. Creations, edits, moves and
                    // deletions evict at once, unless the copy held is already what they made
                    // (read after the index refresh that showed the change, before this).
                    long id = change.postId();
                    details.evictLocalUnless(Long.toString(id), value -> isCurrent(id, value));
                    listsChanged = true;
                }
            }
            if (listsChanged) {
                listsChangedAtMillis = clock.millis();
                lists.evictAllLocal();
            }
        } catch (RuntimeException e) {
            log.warn("Evicting cached posts failed: {}", e.toString());
        }
    }

    /** Cluster-wide, once per change (the shared invalidator): the same entries, from L2. */
    @Override
    public boolean evictShared(List<PostsIndexed.Change> changes) {
        List<String> detailKeys = new ArrayList<>(changes.size());
        Set<Long> categories = new LinkedHashSet<>();
        for (PostsIndexed.Change change : changes) {
            detailKeys.add(Long.toString(change.postId()));
            if (change.categoryId() != null) {
                categories.add(change.categoryId());
            }
        }
        CompletableFuture<Long> detailsDropped = details.evictShared(detailKeys);
        List<String> listKeys = new ArrayList<>();
        for (int page = 0; page < settings.listPages(); page++) {
            for (int size : settings.listSizes()) {
                listKeys.add(listKey(null, page, size));
                for (Long category : categories) {
                    listKeys.add(listKey(category, page, size));
                }
            }
        }
        CompletableFuture<Long> listsDropped = listKeys.isEmpty() ? CompletableFuture.completedFuture(0L) : lists.evictShared(listKeys);
        return detailsDropped.join() >= 0 && listsDropped.join() >= 0;
    }

    /**
     * Whether a loaded or L2 value is at least what the stream announced for this post: an
     * older version, a deleted post that is still there or a live one that is missing mean the
     * value predates a change this node has seen. (Counts are laid over on read, see {@link #detail}.)
     */
    private boolean isCurrent(long id, Optional<PostDetail> value) {
        Announced known = announced.getIfPresent(id);
        if (known == null) {
            // A 404 for an id just above the newest one this node has seen may be a post the
            // replica or the other node already shows: serve it, but do not make it stick.
            return value.isPresent() || !mayAppearSoon(id);
        }
        if (known.deleted()) {
            return value.isEmpty();
        }
        if (value.isEmpty()) {
            return false;
        }
        return value.get().version() >= known.version();
    }

    /**
     * Ids a new post may take before this node hears of it. A flood of lookups for absent ids
     * below the newest (deleted, never used) or far above it stays cached for the negative TTL.
     */
    private boolean mayAppearSoon(long id) {
        long newest = newestId.get();
        return id > newest && id <= newest + UPCOMING_IDS;
    }

    /** List rows with the counts the stream announced last (likes as announced, views never fewer). */
    List<PostSummary> withAnnouncedCounters(List<PostSummary> rows) {
        List<PostSummary> out = new ArrayList<>(rows.size());
        for (PostSummary row : rows) {
            Announced known = announced.getIfPresent(row.id());
            out.add(known == null || known.deleted() ? row
                    : row.withCounters(known.likeCount(), Math.max(row.viewCount(), known.viewCount())));
        }
        return out;
    }

    private static String listKey(Long categoryId, int page, int size) {
        return (categoryId == null ? "all" : "c" + categoryId) + ":" + page + ":" + size;
    }
}
