package dev.hanwiki.post;

import dev.hanwiki.platform.DisplayText;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/**
 * Body of create and edit. Limits mirror the columns: title VARCHAR(512), content 1 MiB chars.
 * {@code version} is the version an edit started from (ignored on create); it may instead come
 * as {@code If-Match}.
 */
record PostRequest(
        @NotBlank @Size(max = PostRequest.MAX_TITLE) String title,
        @NotNull @Size(max = PostRequest.MAX_CONTENT) String content,
        Long categoryId,
        @PositiveOrZero Long version) {

    static final int MAX_TITLE = 512;
    static final int MAX_CONTENT = 1_048_576;

    /** The title in NFC, refused with control or bidi characters; content refused with NUL (ADR 0088). */
    PostRequest normalized() {
        DisplayText.refuseNul("content", content);
        return new PostRequest(DisplayText.normalize("title", title), content, categoryId, version);
    }
}
