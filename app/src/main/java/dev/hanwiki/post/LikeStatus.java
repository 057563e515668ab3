package dev.hanwiki.post;

/** Answer of like and unlike; field names are part of the API contract. */
record LikeStatus(long likeCount, boolean liked) {
}
