package dev.hanwiki.search;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import java.time.Duration;

/** Checks the analysis files for edits every {@code analysis-reload-interval} (when they are read from a directory). */
final class AnalysisReloader extends Background {

    private final SearchAnalysis analysis;
    private final SearchSettings settings;

    AnalysisReloader(SearchAnalysis analysis, SearchSettings settings) {
        super("search-analysis-reloader", Phases.SERVING, Duration.ofSeconds(5));
        this.analysis = analysis;
        this.settings = settings;
    }

    @Override
    protected void onStart() {
        if (settings.analysisDir() != null) {
            Duration every = settings.analysisReloadInterval();
            every(every, every, analysis::reloadQuietly);
        }
    }
}
