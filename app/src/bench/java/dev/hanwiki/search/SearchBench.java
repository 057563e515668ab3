package dev.hanwiki.search;

import dev.hanwiki.Percentiles;
import dev.hanwiki.PortsEnv;
import dev.hanwiki.search.analysis.Hangul;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * {@code make bench-search}: an in-process benchmark over an existing node index (read-only;
 * the node may keep running). Not a test: it prints figures and writes the generated part of
 * docs/bench/search.md. For each query class it measures three paths on the same queries:
 * <ul>
 *   <li>(a0) raw Lucene, top 10 only: the pre-built query, the same top-k collector, stored
 *       fields of the hits;</li>
 *   <li>(a) raw Lucene, same work as the service: (a0) plus facet counting, Matches-based
 *       snippets and, for typos, the suggestion lookup, all called directly with pre-built
 *       queries;</li>
 *   <li>(b) the service's whole path from the query string: parse, analyze, build, collect,
 *       facets, snippets, suggestions, response assembly (everything but the database).</li>
 * </ul>
 * b/a is what the service adds around Lucene; a - a0 is what facets and snippets cost.
 */
public final class SearchBench {

    private static final int TOP = 10;

    /** One query of a class, prepared outside the timed loops. */
    record Prepared(String text, Long categoryId, BuiltQuery built, BuiltQuery corrected) {
    }

    record Stats(int count, double seconds, long p50, long p99) {
        double qps() {
            return count / seconds;
        }
    }

    private final IndexReader reader;
    private final SearcherManager manager;
    private final SearchEngine engine;
    private final PostQueryBuilder builder;
    private final Categories categories;
    private final Random random = new Random(42);
    private final Instant now = Instant.now();

    SearchBench(Path index, SearchAnalysis analysis, Categories categories) throws IOException {
        this.manager = new SearcherManager(FSDirectory.open(index), null);
        IndexSearcher s = manager.acquire();
        this.reader = s.getIndexReader();
        manager.release(s);
        Searchers searchers = new Searchers() {
            @Override
            public IndexSearcher acquire() {
                try {
                    return manager.acquire();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            @Override
            public void release(IndexSearcher searcher) {
                try {
                    manager.release(searcher);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        this.categories = categories;
        this.engine = new SearchEngine(searchers, analysis, categories, Clock.fixed(now, ZoneOffset.UTC));
        this.builder = new PostQueryBuilder(analysis, categories);
        this.analysis = analysis;
    }

    private final SearchAnalysis analysis;

    void close() throws IOException {
        manager.close();
    }

    public static void main(String[] args) throws Exception {
        ToolArgs opts = ToolArgs.parse(args);
        Path root = opts.root();
        Path index = opts.index();
        int perClass = opts.number("queries", 100);
        int rounds = opts.number("rounds", 3);
        Path out = opts.path("out", "docs/bench/search.md");
        if (!Files.exists(index.resolve("segments_1")) && !DirectoryReader.indexExists(FSDirectory.open(index))) {
            System.err.println("no index at " + index + ": run 'make seed DOCS=1000000 WAIT=1' first");
            System.exit(2);
        }
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        SearchAnalysis analysis = new SearchAnalysis(SearchSettings.at(Files.createTempDirectory("bench"))
                .withAnalysisDir(root.resolve("app/src/main/resources/search")));
        Categories categories = Categories.of(categoriesFromReplica(root));
        SearchBench bench = new SearchBench(index, analysis, categories);
        StringBuilder md = new StringBuilder();
        bench.run(perClass, rounds, md, loadBefore, index);
        String text = md.toString();
        System.out.println(text);
        writeSection(out, text);
        System.err.println("wrote " + out);
        System.exit(0);
    }

    // --- query classes ------------------------------------------------------------------

    private Map<String, List<Prepared>> classes(int n) throws IOException {
        int docs = reader.numDocs();
        Map<String, List<String>> byDf = termsByFrequency(docs, n * 20);
        Map<String, List<Prepared>> classes = new LinkedHashMap<>();
        classes.put("rare (<0.1%)", singles(byDf.get("rare"), n, null));
        classes.put("medium (0.5-5%)", singles(byDf.get("medium"), n, null));
        classes.put("high (10-40%)", singles(byDf.get("high"), n, null));
        List<Prepared> and = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            and.add(prepare(pick(byDf.get("high")) + " " + pick(byDf.get("medium")), null));
        }
        classes.put("two-term AND", and);
        classes.put("phrase", phrases(n));
        List<Prepared> category = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            category.add(prepare(pick(byDf.get("medium")), 1L + random.nextInt(30)));
        }
        classes.put("category filter", category);
        classes.put("facets (5k-10k matches, exact)", singles(byDf.get("facets"), n, null));
        classes.put("chosung", chosung(n));
        classes.put("typo + suggestion", typos(n));
        // A phrase of two stop words, say, has nothing to search: not a query to time.
        classes.replaceAll((name, qs) -> qs.stream().filter(p -> p.built().searchable()).toList());
        return classes;
    }

    private List<Prepared> singles(List<String> terms, int n, Long category) {
        List<Prepared> out = new ArrayList<>();
        for (int i = 0; i < n && !terms.isEmpty(); i++) {
            out.add(prepare(terms.get(i % terms.size()), category));
        }
        return out;
    }

    private String pick(List<String> terms) {
        return terms.get(random.nextInt(terms.size()));
    }

    Prepared prepare(String text, Long categoryId) {
        BuiltQuery built = builder.build(text, categoryId, now);
        return new Prepared(text, categoryId, built, null);
    }

    /**
     * Content terms by document frequency, keeping only terms a user would type and that the
     * query analyzer maps back to themselves (so each query is exactly one term).
     */
    private Map<String, List<String>> termsByFrequency(int docs, int keep) throws IOException {
        Terms spell = MultiTerms.getTerms(reader, PostFields.SPELL);
        TermsEnum words = spell == null ? null : spell.iterator();
        Map<String, List<String>> out = new HashMap<>();
        for (String c : List.of("rare", "medium", "high", "facets")) {
            out.put(c, new ArrayList<>());
        }
        Terms terms = MultiTerms.getTerms(reader, PostFields.CONTENT);
        TermsEnum te = terms.iterator();
        long seen = 0;
        for (BytesRef t = te.next(); t != null; t = te.next()) {
            String term = t.utf8ToString();
            if (!typable(term)) {
                continue;
            }
            if (term.charAt(0) < 128 && (words == null || !words.seekExact(new BytesRef(term)))) {
                continue; // an English stem (seriou), not a word someone types
            }
            int df = te.docFreq();
            double share = (double) df / docs;
            String cls = share < 0.001 && df >= 5 ? "rare"
                    : share >= 0.005 && share <= 0.05 ? "medium"
                    : share >= 0.10 && share <= 0.40 ? "high" : null;
            seen++;
            if (cls != null) {
                reservoir(out.get(cls), term, keep, seen);
            }
            if (df >= 5_000 && df <= 10_000) {
                reservoir(out.get("facets"), term, keep, seen);
            }
        }
        for (Map.Entry<String, List<String>> e : out.entrySet()) {
            List<String> ok = new ArrayList<>();
            for (String term : e.getValue()) {
                List<SearchAnalysis.Token> tokens = analysis.queryTokens(term);
                if (tokens.size() == 1 && tokens.getFirst().term().equals(term)) {
                    ok.add(term);
                }
            }
            java.util.Collections.shuffle(ok, random);
            e.setValue(ok);
        }
        return out;
    }

    private void reservoir(List<String> list, String term, int keep, long seen) {
        if (list.size() < keep) {
            list.add(term);
        } else {
            long j = (long) (random.nextDouble() * seen);
            if (j < keep) {
                list.set((int) j, term);
            }
        }
    }

    private static boolean typable(String term) {
        if (term.length() < 2) {
            return false;
        }
        boolean hangul = term.chars().allMatch(c -> Hangul.isSyllable((char) c));
        boolean latin = term.length() >= 3 && term.chars().allMatch(c -> c >= 'a' && c <= 'z');
        return hangul || latin;
    }

    /** Two adjacent words of random pages, as an exact phrase. */
    private List<Prepared> phrases(int n) throws IOException {
        List<Prepared> out = new ArrayList<>();
        StoredFields stored = reader.storedFields();
        while (out.size() < n) {
            Document d = stored.document(random.nextInt(reader.maxDoc()));
            String content = d.get(PostFields.CONTENT);
            if (content == null) {
                continue;
            }
            String[] words = content.split("\\s+");
            if (words.length < 4) {
                continue;
            }
            int i = random.nextInt(words.length - 1);
            String a = words[i].replaceAll("[^\\p{L}\\p{N}]", "");
            String b = words[i + 1].replaceAll("[^\\p{L}\\p{N}]", "");
            if (a.length() >= 2 && b.length() >= 2) {
                out.add(prepare("\"" + a + " " + b + "\"", null));
            }
        }
        return out;
    }

    /** Initial consonants of the first Hangul word of random titles. */
    private List<Prepared> chosung(int n) throws IOException {
        List<Prepared> out = new ArrayList<>();
        StoredFields stored = reader.storedFields();
        while (out.size() < n) {
            String title = stored.document(random.nextInt(reader.maxDoc())).get(PostFields.TITLE);
            for (String word : title.split("\\s+")) {
                if (word.length() >= 2 && word.chars().allMatch(c -> Hangul.isSyllable((char) c))) {
                    out.add(prepare(Hangul.chosung(word), null));
                    break;
                }
            }
        }
        return out;
    }

    /** Frequent title words with one vowel changed, which are not words and find almost nothing. */
    private List<Prepared> typos(int n) throws IOException {
        Terms spell = MultiTerms.getTerms(reader, PostFields.SPELL);
        List<String> popular = new ArrayList<>();
        TermsEnum te = spell.iterator();
        for (BytesRef t = te.next(); t != null; t = te.next()) {
            String word = Hangul.fromJamo(t.utf8ToString());
            if (te.docFreq() >= 200 && word.length() >= 2 && word.length() <= 4
                    && word.chars().allMatch(c -> Hangul.isSyllable((char) c))) {
                popular.add(word);
            }
        }
        java.util.Collections.shuffle(popular, random);
        String vowels = "\u1161\u1165\u1169\u116E\u1173\u1175"; // ㅏ ㅓ ㅗ ㅜ ㅡ ㅣ (conjoining)
        List<Prepared> out = new ArrayList<>();
        TermsEnum check = spell.iterator();
        for (String word : popular) {
            if (out.size() >= n) {
                break;
            }
            char[] jamo = Hangul.toJamo(word).toCharArray();
            List<Integer> medials = new ArrayList<>();
            for (int i = 0; i < jamo.length; i++) {
                if (jamo[i] >= '\u1161' && jamo[i] <= '\u1175') {
                    medials.add(i);
                }
            }
            int at = medials.get(random.nextInt(medials.size()));
            char replacement = vowels.charAt(random.nextInt(vowels.length()));
            if (replacement == jamo[at]) {
                continue;
            }
            jamo[at] = replacement;
            String typo = Hangul.fromJamo(new String(jamo));
            if (check.seekExact(new BytesRef(Hangul.toJamo(typo)))) {
                continue; // the typo is itself a word
            }
            BuiltQuery built = builder.build(typo, null, now);
            BuiltQuery corrected = builder.build(word, null, now);
            // Only typos that need a suggestion: those the index answers with (almost) nothing.
            // Some typos read as frequent morphemes (하은 → 하) and find plenty: not this class.
            if (corrected.searchable() && built.searchable() && hits(built) < Suggestions.FEW) {
                out.add(new Prepared(typo, null, built, corrected));
            }
        }
        return out;
    }

    private long hits(BuiltQuery built) throws IOException {
        IndexSearcher s = manager.acquire();
        try {
            return SearchEngine.top(s, built.ranked(), TOP + 1).totalHits.value();
        } finally {
            manager.release(s);
        }
    }

    // --- the paths ----------------------------------------------------------------------

    /** Per-stage nanoseconds of the raw path, summed over a run. */
    static final class Stages {
        final AtomicLong collect = new AtomicLong();
        final AtomicLong suggest = new AtomicLong();
        final AtomicLong facets = new AtomicLong();
        final AtomicLong snippets = new AtomicLong();
        final AtomicLong calls = new AtomicLong();
    }

    private void rawTop(Prepared p) throws IOException {
        IndexSearcher s = manager.acquire();
        try {
            TopDocs top = SearchEngine.top(s, p.built().ranked(), TOP + 1);
            StoredFields stored = s.storedFields();
            for (int i = 0; i < Math.min(TOP, top.scoreDocs.length); i++) {
                stored.document(top.scoreDocs[i].doc);
            }
        } finally {
            manager.release(s);
        }
    }

    void raw(Prepared p, Stages st) throws IOException {
        IndexSearcher s = manager.acquire();
        try {
            long t0 = System.nanoTime();
            TopDocs top = SearchEngine.top(s, p.built().ranked(), TOP + 1);
            long t1 = System.nanoTime();
            if (p.corrected() != null && top.totalHits.value() < Suggestions.FEW) {
                Suggestions.didYouMean(s.getIndexReader(), p.text(), p.built().plainWords());
                s.search(p.corrected().ranked(), new TopScoreDocCollectorManager(1, Suggestions.FEW));
            }
            long t2 = System.nanoTime();
            CategoryFacets.count(s, p.built().matching());
            long t3 = System.nanoTime();
            Snippets snippets = Snippets.forQuery(s, p.built().highlight());
            StoredFields stored = s.storedFields();
            for (int i = 0; i < Math.min(TOP, top.scoreDocs.length); i++) {
                ScoreDoc d = top.scoreDocs[i];
                snippets.of(d.doc, stored.document(d.doc).get(PostFields.CONTENT));
            }
            long t4 = System.nanoTime();
            if (st != null) {
                st.collect.addAndGet(t1 - t0);
                st.suggest.addAndGet(t2 - t1);
                st.facets.addAndGet(t3 - t2);
                st.snippets.addAndGet(t4 - t3);
                st.calls.incrementAndGet();
            }
        } finally {
            manager.release(s);
        }
    }

    void service(Prepared p) {
        SearchRequest request = new SearchRequest(p.text(), p.categoryId(), 0, TOP);
        SearchService.respond(request, engine.search(request), categories, Map.of());
    }

    interface Path2 {
        void run(Prepared p) throws IOException;
    }

    Stats measure(List<Prepared> queries, int rounds, int threads, Path2 path) throws Exception {
        long[][] lat = new long[threads][queries.size() * rounds];
        Thread[] workers = new Thread[threads];
        Exception[] failure = new Exception[1];
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = Thread.ofPlatform().start(() -> {
                int k = 0;
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < queries.size(); i++) {
                        Prepared p = queries.get((i + id * queries.size() / Math.max(1, threads)) % queries.size());
                        long t0 = System.nanoTime();
                        try {
                            path.run(p);
                        } catch (Exception e) {
                            failure[0] = e;
                            return;
                        }
                        lat[id][k++] = System.nanoTime() - t0;
                    }
                }
            });
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] all = Arrays.stream(lat).flatMapToLong(Arrays::stream).sorted().toArray();
        return new Stats(all.length, seconds, all[(int) (all.length * 0.50)], all[Math.min(all.length - 1, (int) Math.ceil(all.length * 0.99) - 1)]);
    }

    /**
     * Single-thread latencies of two paths on the same queries, interleaved query by query
     * (order alternating), so that machine noise and GC hit both alike. QPS = count / time spent.
     */
    private Stats[] measurePair(List<Prepared> queries, int rounds, Path2 first, Path2 second) throws IOException {
        long[][] lat = new long[2][queries.size() * rounds];
        long[] spent = new long[2];
        int k = 0;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < queries.size(); i++) {
                Prepared p = queries.get(i);
                for (int j = 0; j < 2; j++) {
                    int which = (i + r + j) % 2;
                    long t0 = System.nanoTime();
                    (which == 0 ? first : second).run(p);
                    long d = System.nanoTime() - t0;
                    lat[which][k] = d;
                    spent[which] += d;
                }
                k++;
            }
        }
        Stats[] out = new Stats[2];
        for (int w = 0; w < 2; w++) {
            long[] sorted = lat[w].clone();
            Arrays.sort(sorted);
            out[w] = new Stats(sorted.length, spent[w] / 1e9, Percentiles.nearestRank(sorted, 50),
                    Percentiles.nearestRank(sorted, 99));
        }
        return out;
    }

    // --- the run ------------------------------------------------------------------------

    void run(int perClass, int rounds, StringBuilder md, String loadBefore, Path index) throws Exception {
        long t0 = System.nanoTime();
        Map<String, List<Prepared>> classes = classes(perClass);
        System.err.printf("prepared %d classes in %.1f s%n", classes.size(), (System.nanoTime() - t0) / 1e9);
        // Warm-up: JIT and page cache for every path and class.
        for (List<Prepared> qs : classes.values()) {
            measure(qs, 2, 1, p -> raw(p, null));
            measure(qs, 2, 1, this::service);
            measure(qs, 1, 1, this::rawTop);
        }
        if (System.getProperty("bench.slowest") != null) {
            printSlowest(classes.get(System.getProperty("bench.slowest")));
        }
        Map<String, Stats[]> results = new LinkedHashMap<>();
        Map<String, Stages> stages = new LinkedHashMap<>();
        for (Map.Entry<String, List<Prepared>> c : classes.entrySet()) {
            List<Prepared> qs = c.getValue();
            Stages st = new Stages();
            Stats a0 = measure(qs, rounds, 1, this::rawTop);
            Stats[] ab = measurePair(qs, rounds, p -> raw(p, st), this::service);
            Stats a = ab[0];
            Stats b = ab[1];
            Stats a2 = measure(qs, rounds, 2, p -> raw(p, null));
            Stats b2 = measure(qs, rounds, 2, this::service);
            results.put(c.getKey(), new Stats[] {a0, a, b, a2, b2});
            stages.put(c.getKey(), st);
            System.err.printf("%-32s a0 %7.0f qps  a %7.0f qps  b %7.0f qps (b/a %.2f)  b p99 %.2f ms  2 threads b %7.0f qps (x%.2f)%n",
                    c.getKey(), a0.qps(), a.qps(), b.qps(), b.qps() / a.qps(), b.p99() / 1e6, b2.qps(), b2.qps() / b.qps());
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
        Indexing indexing = indexingThroughput(20_000);
        report(md, classes, results, stages, perClass, rounds, loadBefore, loadAfter, index, indexing);
    }

    /** Diagnostics (-Dbench.slowest=CLASS): the ten slowest queries of a class with their stages. */
    private void printSlowest(List<Prepared> queries) throws IOException {
        record Timed(String text, long total, long collect, long suggest, long facets, long snippets, long hits) {
        }
        List<Timed> timed = new ArrayList<>();
        for (Prepared p : queries) {
            Stages st = new Stages();
            long t0 = System.nanoTime();
            raw(p, st);
            long total = System.nanoTime() - t0;
            IndexSearcher s = manager.acquire();
            long hits;
            try {
                hits = SearchEngine.top(s, p.built().ranked(), TOP + 1).totalHits.value();
            } finally {
                manager.release(s);
            }
            timed.add(new Timed(p.text(), total, st.collect.get(), st.suggest.get(), st.facets.get(), st.snippets.get(), hits));
        }
        timed.sort(java.util.Comparator.comparingLong(Timed::total).reversed());
        timed.stream().limit(10).forEach(t -> System.err.printf("  %-24s %6.2f ms: collect %.2f suggest %.2f facets %.2f snippets %.2f (hits >= %d)%n",
                t.text(), t.total() / 1e6, t.collect() / 1e6, t.suggest() / 1e6, t.facets() / 1e6, t.snippets() / 1e6, t.hits()));
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    private void report(StringBuilder md, Map<String, List<Prepared>> classes, Map<String, Stats[]> results,
            Map<String, Stages> stages, int perClass, int rounds, String loadBefore, String loadAfter, Path index,
            Indexing indexing) throws IOException {
        md.append("Generated by `make bench-search` on ").append(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)).append(".\n\n");
        md.append("Command: `make bench-search` (= `infra/bench/search.sh`: `SearchBench --index ")
                .append(Path.of(".").toAbsolutePath().normalize().relativize(index.toAbsolutePath().normalize()))
                .append(" --queries ").append(perClass).append(" --rounds ").append(rounds).append("`)\n\n");
        md.append("Machine: ").append(cpuModel()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores, ").append(memGb()).append(" GB RAM; ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.version")).append(", Lucene ").append(org.apache.lucene.util.Version.LATEST).append(".\n");
        md.append("Load average before / after: `").append(loadBefore).append("` / `").append(loadAfter)
                .append("` (other engineers' stacks share these 2 cores).\n\n");
        md.append("Index: ").append(String.format(Locale.ROOT, "%,d", reader.numDocs())).append(" pages, ")
                .append(reader.leaves().size()).append(" segments, ").append(String.format(Locale.ROOT, "%.2f", dirSize(index) / 1e9)).append(" GB on disk.\n\n");
        md.append(perClass).append(" distinct queries per class, each run ").append(rounds)
                .append(" times after two warm-up passes; p50/p99 in milliseconds, single thread unless noted. ")
                .append("(a) and (b) are timed interleaved, query by query, so noise hits both alike; 2-thread figures ")
                .append("are two threads running the class concurrently, QPS over wall time.\n\n");
        md.append("| class | (a0) raw top-10 QPS | (a) raw same work QPS | (b) service QPS | **b/a** | b p50 | b p99 | a p99 | (b) 2 threads QPS | **2t/1t** | (a) 2t/1t |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<String, Stats[]> e : results.entrySet()) {
            Stats[] s = e.getValue();
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | **%.2f** | %s | %s | %s | %.0f | **%.2f** | %.2f |%n",
                    e.getKey(), s[0].qps(), s[1].qps(), s[2].qps(), s[2].qps() / s[1].qps(), ms(s[2].p50()), ms(s[2].p99()),
                    ms(s[1].p99()), s[4].qps(), s[4].qps() / s[2].qps(), s[3].qps() / s[1].qps()));
        }
        md.append("\nWhere the time goes (raw path (a), mean milliseconds per query; service overhead = b - a at the mean):\n\n");
        md.append("| class | collect top 10 | suggestion lookup | facets | stored fields + snippets | service overhead (parse, analyze, build, assemble) |\n");
        md.append("|---|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<String, Stages> e : stages.entrySet()) {
            Stages st = e.getValue();
            long n = Math.max(1, st.calls.get());
            Stats[] s = results.get(e.getKey());
            double overhead = (1e3 / s[2].qps()) - (1e3 / s[1].qps());
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.3f |%n", e.getKey(),
                    ms(st.collect.get() / n), ms(st.suggest.get() / n), ms(st.facets.get() / n), ms(st.snippets.get() / n), overhead));
        }
        md.append("\nExample queries per class:\n\n");
        for (Map.Entry<String, List<Prepared>> e : classes.entrySet()) {
            md.append("- ").append(e.getKey()).append(": ");
            e.getValue().stream().limit(5).forEach(p -> md.append('`').append(p.text())
                    .append(p.categoryId() == null ? "" : " (categoryId " + p.categoryId() + ")").append("` "));
            md.append('\n');
        }
        md.append(String.format(Locale.ROOT, "%nIndexing (the first %,d pages of this index re-indexed into a temporary index on one thread, "
                        + "the node's analysis chains and schema): %.1f MB of text, %.2f MB/s per core of CPU time for the whole indexing path; "
                        + "Nori analysis alone (content tokenized, nothing indexed): %.2f MB/s per core.%n",
                indexing.docs, indexing.mb, indexing.mbPerCpuSecond, indexing.noriMbPerCpuSecond));
    }

    record Indexing(int docs, double mb, double mbPerCpuSecond, double noriMbPerCpuSecond) {
    }

    /** Re-indexes the first {@code n} stored pages on this thread; MB/s per core of CPU time. */
    private Indexing indexingThroughput(int n) throws IOException {
        StoredFields stored = reader.storedFields();
        List<PostDocument> docs = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < Math.min(n, reader.maxDoc()); i++) {
            PostDocument d = PostFields.fromStored(stored.document(i), PostFields.counts(reader, i));
            docs.add(d);
            bytes += d.title().getBytes(StandardCharsets.UTF_8).length + d.content().getBytes(StandardCharsets.UTF_8).length;
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Path dir = Files.createTempDirectory("bench-index");
        long cpu;
        try (PostIndex index = new PostIndex(SearchSettings.at(dir).withAnalysisDir(null), analysis)) {
            index.writer().bulkMode(true);
            long c0 = mx.getCurrentThreadCpuTime();
            for (PostDocument d : docs) {
                index.writer().upsert(d);
            }
            index.writer().bulkMode(false);
            cpu = mx.getCurrentThreadCpuTime() - c0;
        } finally {
            deleteTree(dir);
        }
        long c1 = mx.getCurrentThreadCpuTime();
        for (PostDocument d : docs) {
            analysis.queryTokens(""); // keep the chains warm on this thread
            try (var ts = analysis.current().documents().tokenStream(PostFields.CONTENT, d.content())) {
                ts.reset();
                while (ts.incrementToken()) {
                    // count nothing: the cost of producing the tokens is what is measured
                }
                ts.end();
            }
        }
        long nori = mx.getCurrentThreadCpuTime() - c1;
        long contentBytes = docs.stream().mapToLong(d -> d.content().getBytes(StandardCharsets.UTF_8).length).sum();
        return new Indexing(docs.size(), bytes / 1e6, bytes / 1e6 / (cpu / 1e9), contentBytes / 1e6 / (nori / 1e9));
    }

    // --- helpers ------------------------------------------------------------------------

    private static Map<Long, String> categoriesFromReplica(Path root) {
        try {
            Map<String, String> env = PortsEnv.loadWithSecrets(root);
            String url = "jdbc:mysql://" + PortsEnv.addr(env, "MARIADB_REPLICA") + ":" + env.get("MARIADB_REPLICA_PORT") + "/" + env.get("MARIADB_DATABASE");
            try (Connection c = DriverManager.getConnection(url, "hanwiki_ro", env.get("DB_READONLY_PASSWORD"));
                 Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT id, name FROM categories")) {
                Map<Long, String> names = new HashMap<>();
                while (rs.next()) {
                    names.put(rs.getLong(1), rs.getString(2));
                }
                return names;
            }
        } catch (Exception e) {
            System.err.println("category names unavailable (" + e.getMessage() + "): facets keyed by id, category: queries match nothing");
            return Map.of();
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }

    private static long memGb() {
        try {
            String line = Files.readAllLines(Path.of("/proc/meminfo")).getFirst();
            return Long.parseLong(line.replaceAll("\\D", "")) / 1024 / 1024;
        } catch (IOException e) {
            return 0;
        }
    }

    static long dirSize(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.mapToLong(f -> f.toFile().length()).sum();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static final String BEGIN = "<!-- bench-search:begin (generated by make bench-search; edits inside are overwritten) -->";
    static final String END = "<!-- bench-search:end -->";

    /** Replaces the generated section of the report, keeping the hand-written parts around it. */
    static void writeSection(Path out, String section) throws IOException {
        String text = Files.exists(out) ? Files.readString(out) : "# Search benchmark\n\n" + BEGIN + "\n" + END + "\n";
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        String updated = b < 0 || e < b
                ? text + "\n" + BEGIN + "\n" + section + END + "\n"
                : text.substring(0, b + BEGIN.length()) + "\n" + section + text.substring(e);
        Files.createDirectories(out.getParent());
        Files.writeString(out, updated);
    }
}
