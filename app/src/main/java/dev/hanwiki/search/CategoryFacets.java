package dev.hanwiki.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;

/**
 * Counts matching pages per category without making every query exhaustive (ADR 0023).
 * <p>
 * At most {@link #BUDGET} matches are visited. The budget is spread over the index segments
 * in proportion to their size (what a segment leaves unused goes to the next ones), and each
 * segment is read from its start. If no segment runs out, the counts are exact: that is the
 * case whenever the query matches fewer than {@code BUDGET} pages. Otherwise a segment that
 * ran out at document d of n contributes its counts times n / (d + 1): a systematic sample of
 * every segment, scaled up, whose relative error for a category holding a share p of the
 * matches is about sqrt((1 - p) / (p * BUDGET)), e.g. ±3% at p = 0.1.
 */
final class CategoryFacets {

    static final int BUDGET = 10_000;

    /** Matches per category id; {@code exact} false when some counts were scaled from a sample. */
    record Counts(Map<Long, Long> byCategory, boolean exact) {
        static final Counts NONE = new Counts(Map.of(), true);
    }

    private CategoryFacets() {
    }

    static Counts count(IndexSearcher searcher, Query matching) throws IOException {
        int maxDoc = searcher.getIndexReader().maxDoc();
        if (maxDoc == 0) {
            return Counts.NONE;
        }
        return searcher.search(matching, new Manager(maxDoc));
    }

    private static final class Manager implements CollectorManager<SampledCounter, Counts> {
        private final int maxDoc;

        Manager(int maxDoc) {
            this.maxDoc = maxDoc;
        }

        @Override
        public SampledCounter newCollector() {
            return new SampledCounter(maxDoc);
        }

        @Override
        public Counts reduce(Collection<SampledCounter> collectors) {
            Map<Long, Double> sum = new HashMap<>();
            boolean exact = true;
            for (SampledCounter c : collectors) {
                c.finishLeaf();
                c.totals.forEach((k, v) -> sum.merge(k, v, Double::sum));
                exact &= c.exact;
            }
            Map<Long, Long> rounded = new HashMap<>();
            sum.forEach((k, v) -> rounded.put(k, Math.round(v)));
            return new Counts(rounded, exact);
        }
    }

    /** Visits segments in order (the searcher has no executor), spending the budget. */
    private static final class SampledCounter implements Collector {
        private final Map<Long, Double> totals = new HashMap<>();
        private long remainingBudget = BUDGET;
        private long remainingDocs;
        private boolean exact = true;
        // The segment being counted.
        private final Tally leafCounts = new Tally();
        private int leafMaxDoc;
        private int lastDoc = -1;
        private boolean leafCutShort;
        private long leafSeen;

        SampledCounter(int maxDoc) {
            this.remainingDocs = maxDoc;
        }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
            finishLeaf();
            int size = context.reader().maxDoc();
            // Every segment gets at least one match, so none is silently left out of the sample.
            long leafBudget = remainingDocs <= size ? Math.max(1, remainingBudget)
                    : Math.max(1, (long) Math.ceil((double) remainingBudget * size / remainingDocs));
            remainingDocs -= size;
            leafMaxDoc = size;
            SortedNumericDocValues categories = DocValues.getSortedNumeric(context.reader(), PostFields.CATEGORY);
            return new LeafCollector() {
                @Override
                public void setScorer(Scorable scorer) {
                }

                @Override
                public void collect(int doc) throws IOException {
                    if (categories.advanceExact(doc)) {
                        leafCounts.add(categories.nextValue());
                    }
                    lastDoc = doc;
                    if (++leafSeen >= leafBudget) {
                        leafCutShort = true;
                        throw new CollectionTerminatedException();
                    }
                }
            };
        }

        /** Adds the finished segment's counts, scaled if it was cut short. */
        void finishLeaf() {
            if (leafMaxDoc == 0) {
                return;
            }
            double scale = 1;
            if (leafCutShort && lastDoc + 1 < leafMaxDoc) {
                scale = (double) leafMaxDoc / (lastDoc + 1);
                exact = false;
            }
            double s = scale;
            leafCounts.forEach((k, v) -> totals.merge(k, v * s, Double::sum));
            remainingBudget -= leafSeen;
            leafCounts.clear();
            leafMaxDoc = 0;
            lastDoc = -1;
            leafSeen = 0;
            leafCutShort = false;
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE_NO_SCORES;
        }
    }

    /**
     * Matches per category id of one segment, without a boxed Long per match: ids below
     * {@link #DENSE} (category ids are small, curated numbers) are counted in an array, any
     * other id in a map.
     */
    static final class Tally {
        static final int DENSE = 1024;
        private final long[] dense = new long[DENSE];
        private final Map<Long, Long> sparse = new HashMap<>();
        private int maxDense = -1;

        void add(long id) {
            if (id >= 0 && id < DENSE) {
                int i = (int) id;
                dense[i]++;
                maxDense = Math.max(maxDense, i);
            } else {
                sparse.merge(id, 1L, Long::sum);
            }
        }

        void forEach(BiConsumer<Long, Long> action) {
            for (int i = 0; i <= maxDense; i++) {
                if (dense[i] != 0) {
                    action.accept((long) i, dense[i]);
                }
            }
            sparse.forEach(action);
        }

        void clear() {
            Arrays.fill(dense, 0, maxDense + 1, 0);
            maxDense = -1;
            sparse.clear();
        }
    }
}
