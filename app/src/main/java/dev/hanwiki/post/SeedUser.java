package dev.hanwiki.post;

import org.springframework.stereotype.Component;

/** Authors every write as the seeded user (id 1, see V1__init.sql) until auth lands. */
@Component
class SeedUser implements CurrentUser {

    static final long SEED_USER_ID = 1L;

    @Override
    public long id() {
        return SEED_USER_ID;
    }
}
