-- Hanwiki schema v1: users, categories, posts with revision history, likes.
-- Timestamps are DATETIME(6) holding UTC; the application writes them (Debezium reads
-- DATETIME as UTC epoch microseconds, so UTC keeps the index and the API consistent).

CREATE TABLE users (
    id            BIGINT       NOT NULL AUTO_INCREMENT,
    username      VARCHAR(20)  NOT NULL,
    nickname      VARCHAR(12)  NOT NULL,
    password_hash VARCHAR(100) NULL,
    created_at    DATETIME(6)  NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_users_username UNIQUE (username),
    CONSTRAINT uk_users_nickname UNIQUE (nickname)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Curated reference data: ids are assigned by whoever seeds categories, not generated.
CREATE TABLE categories (
    id        BIGINT      NOT NULL,
    name      VARCHAR(50) NOT NULL,
    parent_id BIGINT      NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_categories_name UNIQUE (name),
    CONSTRAINT fk_categories_parent FOREIGN KEY (parent_id) REFERENCES categories (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Every change bumps version; deletes are soft (deleted_at) so history and ids stay.
CREATE TABLE posts (
    id          BIGINT       NOT NULL AUTO_INCREMENT,
    title       VARCHAR(512) NOT NULL,
    content     MEDIUMTEXT   NOT NULL,
    category_id BIGINT       NULL,
    author_id   BIGINT       NOT NULL,
    view_count  BIGINT       NOT NULL DEFAULT 0,
    like_count  BIGINT       NOT NULL DEFAULT 0,
    version     BIGINT       NOT NULL DEFAULT 1,
    created_at  DATETIME(6)  NOT NULL,
    updated_at  DATETIME(6)  NOT NULL,
    deleted_at  DATETIME(6)  NULL,
    PRIMARY KEY (id),
    -- Newest-first listing, per category and overall; id breaks ties of equal timestamps.
    KEY ix_posts_category_newest (category_id, deleted_at, created_at, id),
    KEY ix_posts_newest (deleted_at, created_at, id),
    CONSTRAINT fk_posts_category FOREIGN KEY (category_id) REFERENCES categories (id),
    CONSTRAINT fk_posts_author FOREIGN KEY (author_id) REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- One row per saved version; author_id is whoever saved that version.
-- No foreign key on category_id: history must survive a category's removal.
CREATE TABLE post_revisions (
    post_id     BIGINT       NOT NULL,
    version     BIGINT       NOT NULL,
    title       VARCHAR(512) NOT NULL,
    content     MEDIUMTEXT   NOT NULL,
    category_id BIGINT       NULL,
    author_id   BIGINT       NOT NULL,
    created_at  DATETIME(6)  NOT NULL,
    PRIMARY KEY (post_id, version),
    CONSTRAINT fk_post_revisions_post FOREIGN KEY (post_id) REFERENCES posts (id),
    CONSTRAINT fk_post_revisions_author FOREIGN KEY (author_id) REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE post_likes (
    post_id    BIGINT      NOT NULL,
    user_id    BIGINT      NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (post_id, user_id),
    KEY ix_post_likes_user (user_id),
    CONSTRAINT fk_post_likes_post FOREIGN KEY (post_id) REFERENCES posts (id),
    CONSTRAINT fk_post_likes_user FOREIGN KEY (user_id) REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Until authentication exists every write is authored by this user (CurrentUser seam).
INSERT INTO users (id, username, nickname, password_hash, created_at)
VALUES (1, 'hanwiki', '한위키', NULL, UTC_TIMESTAMP(6));
