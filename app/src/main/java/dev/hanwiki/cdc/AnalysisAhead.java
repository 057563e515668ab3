package dev.hanwiki.cdc;

import dev.hanwiki.lifecycle.Threads;
import dev.hanwiki.search.PostDocument;
import dev.hanwiki.search.PreAnalyzedPost;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The analyses of a batch's pages (ADR 0097), run on the analysis workers in stream order, at most
 * {@value #AHEAD} pages before the indexer thread reaches them: enough to keep every worker busy,
 * and a bound on the tokens held whatever the pages' size (a page may have a million characters;
 * a whole batch of such pages analysed at once would hold gigabytes of tokens). The tokens of a
 * page are let go once the next page is asked for, and {@link #close()} cancels whatever the batch
 * did not use (a stale change's, all after a failure). For the one thread that applies the batch.
 */
final class AnalysisAhead implements AutoCloseable {

    static final int AHEAD = 16;

    private final List<PostDocument> pages;
    private final Function<PostDocument, PreAnalyzedPost> analyzer;
    private final Executor workers;
    /** By page; null once let go. */
    private final List<FutureTask<PreAnalyzedPost>> started = new ArrayList<>();
    private int taken;

    /** Starts nothing yet: the first {@link #next()} does. */
    AnalysisAhead(List<PostDocument> pages, Function<PostDocument, PreAnalyzedPost> analyzer, Executor workers) {
        this.pages = pages;
        this.analyzer = analyzer;
        this.workers = workers;
    }

    /**
     * The tokens of the next page (pages in the order given), as {@code PostIndexWriter.apply} asks
     * for them: waiting for its analysis, throwing what the analysis threw. Lets the previous
     * page's go and starts the analyses up to {@value #AHEAD} pages after this one.
     */
    Supplier<PreAnalyzedPost> next() {
        int page = taken++;
        if (page > 0) {
            letGo(page - 1);
        }
        for (int next = started.size(); next < pages.size() && next <= page + AHEAD; next++) {
            PostDocument post = pages.get(next);
            FutureTask<PreAnalyzedPost> task = new FutureTask<>(() -> analyzer.apply(post));
            started.add(task);
            workers.execute(task);
        }
        FutureTask<PreAnalyzedPost> task = started.get(page);
        return () -> Threads.await(task, "waiting for a page's analysis");
    }

    /** Cancels the analyses nobody took: queued ones never run, running ones finish unread. */
    @Override
    public void close() {
        for (int page = 0; page < started.size(); page++) {
            letGo(page);
        }
    }

    private void letGo(int page) {
        FutureTask<PreAnalyzedPost> task = started.get(page);
        if (task != null) {
            task.cancel(false);
            started.set(page, null);
        }
    }
}
