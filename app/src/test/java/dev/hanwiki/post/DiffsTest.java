package dev.hanwiki.post;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class DiffsTest {

    private static Revision revision(long version, String title, String content, Long category) {
        return new Revision(9, version, title, content, category, 1, "앨리스", Instant.EPOCH);
    }

    @Test
    void aChangedLineIsOneRemovedAndOneAddedLineInAUnifiedDiff() {
        RevisionDiff diff = Diffs.between(revision(1, "서울", "첫째 줄\n둘째 줄\n셋째 줄\n", 27L),
                revision(2, "서울", "첫째 줄\n고친 둘째 줄\n셋째 줄\n넷째 줄\n", 27L));

        assertThat(diff.added()).isEqualTo(2);
        assertThat(diff.removed()).isEqualTo(1);
        assertThat(diff.titleChanged()).isFalse();
        assertThat(diff.categoryChanged()).isFalse();
        assertThat(diff.unified()).isEqualTo("""
                --- v1
                +++ v2
                @@ -1,3 +1,4 @@
                 첫째 줄
                -둘째 줄
                +고친 둘째 줄
                 셋째 줄
                +넷째 줄""");
    }

    @Test
    void identicalContentHasAnEmptyDiffButTitleAndCategoryChangesAreReported() {
        RevisionDiff diff = Diffs.between(revision(3, "부산", "같은 내용", 28L), revision(4, "부산광역시", "같은 내용", null));

        assertThat(diff.unified()).isEmpty();
        assertThat(diff.added()).isZero();
        assertThat(diff.removed()).isZero();
        assertThat(diff.titleChanged()).isTrue();
        assertThat(diff.categoryChanged()).isTrue();
    }

    @Test
    void aDiffCanGoBackwards() {
        RevisionDiff diff = Diffs.between(revision(2, "t", "b\n", null), revision(1, "t", "a\n", null));

        assertThat(diff.from()).isEqualTo(2);
        assertThat(diff.to()).isEqualTo(1);
        assertThat(diff.unified()).contains("-b", "+a");
    }

    @Test
    void windowsLineEndingsAndAFinalNewlineDoNotCountAsChanges() {
        assertThat(Diffs.lines("a\r\nb\r\n")).containsExactly("a", "b");
        assertThat(Diffs.lines("a\nb")).containsExactly("a", "b");
        assertThat(Diffs.lines("")).isEmpty();
        assertThat(Diffs.between(revision(1, "t", "a\r\nb\r\n", null), revision(2, "t", "a\nb", null)).unified()).isEmpty();
    }

    @Test
    void contentWithTooManyLinesIsRefusedInsteadOfDiffedSlowly() {
        String huge = "x\n".repeat(Diffs.MAX_LINES + 1);
        assertThatThrownBy(() -> Diffs.between(revision(1, "t", huge, null), revision(2, "t", "x", null)))
                .isInstanceOf(DiffTooLargeException.class);
    }

    @Test
    void theLargestAllowedDiffOfTotallyDifferentContentStaysFast() {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Diffs.MAX_LINES; i++) {
            a.append("a").append(i).append('\n');
            b.append("b").append(i).append('\n');
        }
        long start = System.nanoTime();
        RevisionDiff diff = Diffs.between(revision(1, "t", a.toString(), null), revision(2, "t", b.toString(), null));
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(diff.added()).isEqualTo(Diffs.MAX_LINES);
        assertThat(diff.removed()).isEqualTo(Diffs.MAX_LINES);
        // A bound on the worst case, far above what it takes, so that it only fails on a blow-up.
        assertThat(millis).isLessThan(10_000);
    }

    /** The case: two 5,000-line revisions took 1.4 s of CPU and answered 2 MB. */
    @Test
    void fiveThousandLineRevisionsAreRefusedInUnder100MillisecondsOfCpu() {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            a.append("line a ").append(i).append('\n');
            b.append("line b ").append(i).append('\n');
        }
        Revision from = revision(1, "t", a.toString(), null);
        Revision to = revision(2, "t", b.toString(), null);
        var cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = cpu.getCurrentThreadCpuTime();
        assertThatThrownBy(() -> Diffs.between(from, to)).isInstanceOf(DiffTooLargeException.class)
                .hasMessageContaining("2000 lines");
        long millis = (cpu.getCurrentThreadCpuTime() - start) / 1_000_000;
        assertThat(millis).isLessThan(100);
    }

    @Test
    void contentPastTheCharacterCapIsRefusedEvenInFewLines() {
        String wide = "x".repeat(Diffs.MAX_CHARS + 1);
        assertThatThrownBy(() -> Diffs.between(revision(1, "t", wide, null), revision(2, "t", "x", null)))
                .isInstanceOf(DiffTooLargeException.class).hasMessageContaining("characters");
    }
}
