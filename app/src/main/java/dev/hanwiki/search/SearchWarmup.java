package dev.hanwiki.search;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Health contributor {@code searchWarmup} (part of the readiness group, ADR 0100): before a
 * node takes traffic, it runs searches of words from its own index through the uncached search
 * path (query analysis, Lucene, facets, snippets, the hit details query, the response's JSON)
 * and re-analyses the pages it finds as the indexer would, so the JIT has compiled that code
 * before the first reader waits for it. A node that has just started otherwise answers its first
 * minute of searches several times slower, and under load sheds some of them (the overload
 * limit sees a queue). UP once {@code searches} ran or {@code max-duration} passed, whichever
 * comes first, and at once when the index holds no words yet (a node rebuilding it). It runs at
 * {@code niceness}, so on a host shared with a serving node it takes only the cores that node
 * leaves idle.
 */
@Component
class SearchWarmup extends Background implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(SearchWarmup.class);
    /** Distinct words drawn from the index, spread over its term dictionary. */
    static final int WORDS = 400;
    /** Random points of the term dictionary tried per word drawn. */
    private static final int SEEKS_PER_WORD = 4;
    /** Terms read at most from each random point, looking for a word. */
    private static final int READ_PER_SEEK = 256;
    private static final int FIRST_SYLLABLE = 0xAC00;
    private static final int SYLLABLES = 0xD7A3 - FIRST_SYLLABLE + 1;
    /** Every this many searches, the first hit's page is analysed again as the indexer would. */
    private static final int ANALYSE_EVERY = 4;

    private final SearchWarmupSettings settings;
    private final PostIndex index;
    private final SearchService search;
    private final JsonMapper json;
    private final Clock clock;
    private volatile boolean done;
    private volatile int ran;
    private volatile long startedAtMillis = -1;

    SearchWarmup(SearchWarmupSettings settings, PostIndex index, SearchService search, JsonMapper json, Clock clock) {
        super("search-warmup", Phases.SERVING, Duration.ofSeconds(2), settings.niceness());
        this.settings = settings;
        this.index = index;
        this.search = search;
        this.json = json;
        this.clock = clock;
    }

    @Override
    protected void onStart() {
        startedAtMillis = clock.millis();
        if (settings.searches() == 0 || settings.maxDuration().isZero()) {
            done = true;
            return;
        }
        // The whole warm-up at low priority (ADR 0100, amended): its searches and analysis run on
        // the calling thread and start no lasting thread (see Background#atLowPriority).
        submit(() -> atLowPriority(() -> {
            warm();
            return null;
        }));
    }

    private void warm() {
        try {
            List<String> words = words(index, WORDS);
            long drawnMillis = clock.millis() - startedAtMillis;
            if (words.isEmpty()) {
                log.info("Search warm-up skipped: the index holds no words yet");
                return;
            }
            long deadline = startedAtMillis + settings.maxDuration().toMillis();
            Long category = null;
            boolean details = true;
            int failed = 0;
            int i = 0;
            for (; i < settings.searches() && running() && clock.millis() < deadline; i++, ran = i) {
                String word = words.get(i % words.size());
                // Mostly one word, as readers search; some pairs, some later pages, some in a category.
                String q = i % 5 == 4 ? word + " " + words.get((i * 7 + 3) % words.size()) : word;
                SearchRequest request = new SearchRequest(q, i % 3 == 2 ? category : null, i % 7 == 6 ? 1 : 0,
                        i % 2 == 0 ? 10 : 20, false);
                try {
                    SearchService.Uncached answer = search.uncached(request, details);
                    // The replica failed to give the hits' details: the rest is warm-up enough.
                    details &= !answer.detailsFailed();
                    json.writeValueAsBytes(answer.response());
                    if (!answer.pages().isEmpty()) {
                        PostDocument first = answer.pages().getFirst();
                        category = first.categoryId();
                        if (i % ANALYSE_EVERY == 0 && first.content() != null) {
                            index.writer().analyze(first);
                        }
                    }
                } catch (RuntimeException e) {
                    if (failed++ == 0) {
                        log.warn("Search warm-up: a search failed ({}); carrying on", e.toString());
                    }
                }
            }
            log.info("Search warm-up: {} searches of {} words (drawn after {} ms) in {} ms{}", i, words.size(),
                    drawnMillis, clock.millis() - startedAtMillis, failed > 0 ? ", " + failed + " failed" : "");
        } catch (RuntimeException | IOException e) {
            log.warn("Search warm-up ended early: {}", e.toString());
        } finally {
            done = true;
        }
    }

    /**
     * Up to {@code count} distinct words of the content field that at least two pages hold, from
     * the term dictionary of the index's largest segment: each is the first such word at or after
     * a random point of it (a Hangul syllable, one in five a Latin letter; a fixed seed). Most of
     * that dictionary is word pairs (ADR 0024) and words of one page, which a walk at even steps
     * would nearly always land on; a scan of all of it (up to 20M terms) took the whole warm-up
     * budget at low priority on a busy host (ADR 0100, amended). At most {@link #SEEKS_PER_WORD}
     * seeks per word, each reading at most {@link #READ_PER_SEEK} terms.
     */
    static List<String> words(Searchers searchers, int count) throws IOException {
        IndexSearcher searcher = searchers.acquire();
        try {
            LeafReaderContext largest = null;
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                if (largest == null || leaf.reader().numDocs() > largest.reader().numDocs()) {
                    largest = leaf;
                }
            }
            Terms terms = largest == null ? null : largest.reader().terms(PostFields.CONTENT);
            if (terms == null) {
                return List.of();
            }
            Set<String> words = new LinkedHashSet<>();
            Random random = new Random(42);
            TermsEnum te = terms.iterator();
            for (int seek = 0; seek < count * SEEKS_PER_WORD && words.size() < count; seek++) {
                int from = seek % 5 == 4 ? 'a' + random.nextInt(26) : FIRST_SYLLABLE + random.nextInt(SYLLABLES);
                BytesRef term = seekWrapping(te, new BytesRef(Character.toString(from)));
                for (int read = 0; term != null && read < READ_PER_SEEK; read++, term = nextWrapping(te)) {
                    String word = te.docFreq() < 2 ? null : term.utf8ToString();
                    if (word != null && word.codePoints().allMatch(Character::isLetter) && words.add(word)) {
                        break;
                    }
                }
            }
            return List.copyOf(words);
        } finally {
            searchers.release(searcher);
        }
    }

    /** The first term at or after {@code target}, else the dictionary's first; null when it is empty. */
    private static BytesRef seekWrapping(TermsEnum te, BytesRef target) throws IOException {
        boolean empty = te.seekCeil(target) == TermsEnum.SeekStatus.END && te.seekCeil(new BytesRef()) == TermsEnum.SeekStatus.END;
        return empty ? null : te.term();
    }

    /** The next term, after the last one the dictionary's first. */
    private static BytesRef nextWrapping(TermsEnum te) throws IOException {
        BytesRef next = te.next();
        return next != null ? next : seekWrapping(te, new BytesRef());
    }

    @Override
    public Health health() {
        long started = startedAtMillis;
        // Never holds a node out for longer than the budget, whatever became of its thread.
        boolean over = started >= 0 && clock.millis() - started > settings.maxDuration().toMillis() + 5_000;
        return (done || over ? Health.up() : Health.down())
                .withDetail("searches", ran)
                .withDetail("of", settings.searches())
                .build();
    }
}
