package dev.hanwiki.post;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** Body of create and edit. Limits mirror the columns: title VARCHAR(512), content 1 MiB chars. */
record PostRequest(
        @NotBlank @Size(max = PostRequest.MAX_TITLE) String title,
        @NotNull @Size(max = PostRequest.MAX_CONTENT) String content,
        Long categoryId) {

    static final int MAX_TITLE = 512;
    static final int MAX_CONTENT = 1_048_576;
}
