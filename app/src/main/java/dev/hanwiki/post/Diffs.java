package dev.hanwiki.post;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Patch;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Line diffs of post content with java-diff-utils (Myers). Myers costs about lines times
 * changes, so content past {@code maxLines} lines or {@code maxChars} characters on either side
 * is refused rather than diffed slowly on a request thread ({@link DiffSettings}).
 */
final class Diffs {

    /** The default of {@code hanwiki.diff.max-lines}. */
    static final int MAX_LINES = 2_000;
    /** The default of {@code hanwiki.diff.max-chars}. */
    static final int MAX_CHARS = 262_144;
    private static final int CONTEXT = 3;

    private Diffs() {
    }

    static RevisionDiff between(Revision from, Revision to) {
        return between(from, to, MAX_LINES, MAX_CHARS);
    }

    static RevisionDiff between(Revision from, Revision to, int maxLines, int maxChars) {
        if (from.content().length() > maxChars || to.content().length() > maxChars) {
            throw new DiffTooLargeException(maxLines, maxChars);
        }
        List<String> before = lines(from.content());
        List<String> after = lines(to.content());
        if (before.size() > maxLines || after.size() > maxLines) {
            throw new DiffTooLargeException(maxLines, maxChars);
        }
        Patch<String> patch = DiffUtils.diff(before, after);
        int added = 0;
        int removed = 0;
        for (AbstractDelta<String> delta : patch.getDeltas()) {
            added += delta.getTarget().size();
            removed += delta.getSource().size();
        }
        String unified = patch.getDeltas().isEmpty() ? ""
                : String.join("\n", UnifiedDiffUtils.generateUnifiedDiff(
                        "v" + from.version(), "v" + to.version(), before, patch, CONTEXT));
        return new RevisionDiff(from.postId(), from.version(), to.version(),
                !from.title().equals(to.title()), !Objects.equals(from.categoryId(), to.categoryId()),
                added, removed, unified);
    }

    /** Lines as a reader sees them: a CRLF counts as one break, and a final newline ends the last line. */
    static List<String> lines(String content) {
        if (content.isEmpty()) {
            return List.of();
        }
        String[] split = content.split("\r?\n", -1);
        int n = split.length;
        if (split[n - 1].isEmpty()) {
            n--;
        }
        return Arrays.asList(split).subList(0, n);
    }
}
