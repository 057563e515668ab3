package dev.hanwiki.post;

/**
 * Who is making the current request. The seam where authentication plugs in: until it does,
 * {@link SeedUser} answers with the user seeded by the first migration.
 */
public interface CurrentUser {

    long id();
}
