package dev.hanwiki.post;

import dev.hanwiki.platform.ApiException;
import org.springframework.http.HttpStatus;

/** Diffing cost grows with lines times changes; past the bound the answer would take too long. */
class DiffTooLargeException extends ApiException {

    DiffTooLargeException(int maxLines, int maxChars) {
        super(HttpStatus.UNPROCESSABLE_CONTENT, "DIFF_TOO_LARGE",
                "Revisions with more than " + maxLines + " lines or " + maxChars + " characters cannot be compared here.");
    }
}
