-- Counters live apart from the page (issue 13, ADR 0080). The binlog is row-based with full
-- images and the change stream copies every row change of posts: a like or a view flush that
-- updated posts copied the whole page (up to 1 MiB, twice: before and after image) through the
-- binlog, the replica and Kafka. A narrow row per post makes such a change cost about 100 bytes.
--
-- version counts the changes of this row (not the post's version): the index applies a counter
-- change only if it is newer than the one it holds, so a replayed event cannot regress counts.
CREATE TABLE post_counters (
    post_id    BIGINT NOT NULL,
    view_count BIGINT NOT NULL DEFAULT 0,
    like_count BIGINT NOT NULL DEFAULT 0,
    version    BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (post_id),
    CONSTRAINT fk_post_counters_post FOREIGN KEY (post_id) REFERENCES posts (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Every existing post, deleted ones included (their counts stay with their history).
INSERT INTO post_counters (post_id, view_count, like_count, version)
SELECT id, view_count, like_count, 1 FROM posts;

-- MariaDB drops columns in place (instant ALTER): no copy of the pages.
ALTER TABLE posts DROP COLUMN view_count, DROP COLUMN like_count;
