package dev.hanwiki.cdc;

import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.search.PostCounters;
import dev.hanwiki.search.PostDocument;
import java.util.OptionalLong;

/** What one change event means for the index. */
sealed interface PostChange {

    /**
     * When the change was written, in epoch milliseconds, if it is a fresh write: the row's
     * {@code updated_at} (microsecond precision) or else Debezium's {@code source.ts_ms}.
     * MariaDB binlog timestamps have whole-second precision, too coarse to measure a 1 s
     * freshness budget, hence the row time first, unless it is more than a minute from the
     * binlog's (a page loaded with its original date; {@link PostChangeParser#ROW_TIME_AGREEMENT}).
     * Empty for snapshot reads (old rows, not fresh writes) and tombstones.
     */
    OptionalLong changedAtMillis();

    /**
     * This change as the node announces it once applied ({@link PostsIndexed}). {@code countersOnly}
     * is decided here and only here: the parser gives no write time to exactly the changes that
     * carry no new version (a like, a view flush) or that a snapshot re-read.
     */
    default PostsIndexed.Change announced(boolean reindexed) {
        return switch (this) {
            case Upsert u -> new PostsIndexed.Change(u.post().id(), false, u.post().version(), u.post().title(),
                    u.post().categoryId(), u.post().likeCount(), u.post().viewCount(), reindexed,
                    u.changedAtMillis().isEmpty());
            case Delete d -> new PostsIndexed.Change(d.postId(), true, d.version().orElse(0), null, null, 0, 0, reindexed, false);
            // A counter change carries no version, title or category (the counter row has none):
            // 0 and null here; the applier fills in the ones the index holds (ADR 0080).
            case Counters c -> new PostsIndexed.Change(c.postId(), false, 0, null, null, c.counters().likes(),
                    c.counters().views(), reindexed, true);
            case Ignored i -> new PostsIndexed.Change(i.postId(), false, 0, null, null, 0, 0, false, true);
        };
    }

    /**
     * The post exists and is live: index this version of it. {@code carriesCounters}: the row
     * had view and like counts (a page row from before counters had their own table, ADR 0080).
     */
    record Upsert(PostDocument post, OptionalLong changedAtMillis, boolean carriesCounters) implements PostChange {

        Upsert(PostDocument post, OptionalLong changedAtMillis) {
            this(post, changedAtMillis, true);
        }
    }

    /**
     * The post's counter row changed (a like, an unlike, a view flush; ADR 0080): counts only,
     * never a fresh write of the page, so no write time.
     */
    record Counters(long postId, PostCounters counters) implements PostChange {

        @Override
        public OptionalLong changedAtMillis() {
            return OptionalLong.empty();
        }
    }

    /** A change with nothing for the index (a counter row removed with its post). */
    record Ignored(long postId) implements PostChange {

        @Override
        public OptionalLong changedAtMillis() {
            return OptionalLong.empty();
        }
    }

    /**
     * The post is gone (soft delete, hard delete or tombstone): remove it. {@code version} is the
     * row version the delete ends: the soft delete's bumped version, the hard delete's last
     * version ({@code before}); empty for a Kafka tombstone, which carries no row at all.
     * {@code deletedAtMillis}: when the delete happened (the row's {@code deleted_at}, or the
     * binlog time of a hard delete), where its tombstone's retention starts; empty if unknown.
     */
    record Delete(long postId, OptionalLong version, OptionalLong changedAtMillis, OptionalLong deletedAtMillis)
            implements PostChange {
    }
}
