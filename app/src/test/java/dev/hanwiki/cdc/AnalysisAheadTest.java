package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.search.PostDocument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** A batch's analyses run ahead of the indexer, but only so far: the tokens held stay bounded. */
class AnalysisAheadTest {

    /** Holds what it is handed; the test runs it (or not). */
    private final List<Runnable> handed = new ArrayList<>();
    private final List<Long> analysed = new ArrayList<>();

    private static List<PostDocument> pages(int n) {
        Instant at = Instant.parse("2025-11-21T03:00:00Z");
        return LongStream.rangeClosed(1, n).mapToObj(id -> new PostDocument(id, "t" + id, "c", null, 1, 0, 0, at, at, 1)).toList();
    }

    private AnalysisAhead ahead(List<PostDocument> pages) {
        return new AnalysisAhead(pages, post -> {
            analysed.add(post.id());
            if (post.id() == 3) {
                throw new IllegalArgumentException("page 3 cannot be analysed");
            }
            return null;
        }, handed::add);
    }

    @Test
    void analysesStartInStreamOrderAtMostAheadPagesBeforeTheIndexer() {
        try (AnalysisAhead ahead = ahead(pages(100))) {
            assertThat(handed).as("nothing before the first page is asked for").isEmpty();

            ahead.next();
            assertThat(handed).hasSize(AnalysisAhead.AHEAD + 1);
            ahead.next();
            assertThat(handed).hasSize(AnalysisAhead.AHEAD + 2);

            handed.forEach(Runnable::run);
            // Page 1 was let go when page 2 was asked for: its analysis never ran.
            assertThat(analysed).startsWith(2L, 3L, 4L).hasSize(AnalysisAhead.AHEAD + 1).isSorted();
        }
    }

    @Test
    void aPageIsLetGoWhenTheNextIsAskedForAndTheRestWhenTheBatchEnds() {
        AnalysisAhead ahead = ahead(pages(5));
        ahead.next();
        ahead.next(); // page 1 is let go: its analysis will not run
        ahead.close();

        handed.forEach(Runnable::run);

        assertThat(analysed).as("every analysis was cancelled before it ran").isEmpty();
        assertThat(handed).allSatisfy(task -> assertThat(((Future<?>) task).isCancelled()).isTrue());
    }

    @Test
    void whatAnAnalysisThrewIsThrownToWhoeverAsksForItsTokens() {
        try (AnalysisAhead ahead = ahead(pages(5))) {
            Supplier<?> first = ahead.next();
            handed.forEach(Runnable::run); // all five started with the first
            assertThat(first.get()).isNull(); // the stand-in analysis makes no tokens
            ahead.next();
            Supplier<?> third = ahead.next();

            assertThatThrownBy(third::get).isInstanceOf(IllegalArgumentException.class).hasMessage("page 3 cannot be analysed");
        }
    }
}
