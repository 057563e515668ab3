/**
 * Posts: the write API (create, edit, soft delete; one primary transaction each, with a
 * revision row per saved version) and detail reads from the replica. It must never touch the
 * search index or any cache: those follow the binlog, so the database commit is the only
 * thing a write has to get right.
 */
package dev.hanwiki.post;
