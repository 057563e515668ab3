package dev.hanwiki.search;

import dev.hanwiki.Percentiles;
import dev.hanwiki.search.analysis.CommonGrams;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;

/**
 * {@code make bench-common-grams}: what CommonGrams (ADR 0024) costs and buys, in-process on a
 * subset. The first {@code --docs} pages of a node index are indexed on one thread into a
 * temporary index per variant (no pairs, then each list of common terms given), measuring CPU
 * MB/s of the whole indexing path and the index size; then the same phrase queries (two
 * adjacent words of random pages of the subset) run against each, through the raw Lucene path
 * and the service path, reporting p50/p99. Not a test: it prints figures.
 */
public final class CommonGramsBench {

    private CommonGramsBench() {
    }

    public static void main(String[] args) throws Exception {
        ToolArgs opts = ToolArgs.parse(args);
        Path root = opts.root();
        Path source = opts.index();
        int n = opts.number("docs", 50000);
        int queries = opts.number("queries", 300);
        int rounds = opts.number("rounds", 3);
        Map<String, CommonGrams> variants = new LinkedHashMap<>();
        variants.put("no pairs", CommonGrams.none());
        for (String list : opts.text("lists", "app/src/main/resources/search/common-terms.txt").split(",")) {
            CommonGrams grams = CommonGrams.parse(Files.readString(root.resolve(list)));
            variants.put(grams.size() + " common terms (" + Path.of(list).getFileName() + ")", grams);
        }
        List<PostDocument> docs = new ArrayList<>();
        long bytes = 0;
        try (IndexReader reader = DirectoryReader.open(FSDirectory.open(source))) {
            StoredFields stored = reader.storedFields();
            for (int i = 0; i < Math.min(n, reader.maxDoc()); i++) {
                PostDocument d = PostFields.fromStored(stored.document(i), PostFields.counts(reader, i));
                docs.add(d);
                bytes += d.title().getBytes(StandardCharsets.UTF_8).length + d.content().getBytes(StandardCharsets.UTF_8).length;
            }
        }
        List<String> phrases = phrases(docs, queries, new Random(42));
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Subset: the first %,d pages of %s (%.1f MB of text), %d phrase queries x %d rounds, one thread.%n%n",
                docs.size(), root.relativize(source), bytes / 1e6, phrases.size(), rounds));
        out.append("Latencies in ms as CPU time / wall time of the query's thread (CPU time is what the query costs; "
                + "wall time adds waiting for a core on this shared machine).\n\n");
        out.append("| variant | indexing MB/s per core | index size | phrase (b) p50 | phrase (b) p99 | phrase (a) p99 | phrase (b) mean CPU |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|\n");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (Map.Entry<String, CommonGrams> v : variants.entrySet()) {
            Path dir = Files.createTempDirectory("bench-grams");
            try {
                SearchSettings settings = SearchSettings.at(dir).withAnalysisDir(root.resolve("app/src/main/resources/search"));
                SearchAnalysis analysis = new SearchAnalysis(settings, v.getValue());
                long cpu;
                try (PostIndex index = new PostIndex(settings, analysis)) {
                    index.writer().bulkMode(true);
                    long c0 = mx.getCurrentThreadCpuTime();
                    for (PostDocument d : docs) {
                        index.writer().upsert(d);
                    }
                    index.writer().bulkMode(false);
                    index.writer().commit(Map.of());
                    cpu = mx.getCurrentThreadCpuTime() - c0;
                }
                double mbps = bytes / 1e6 / (cpu / 1e9);
                long size = SearchBench.dirSize(dir);
                SearchBench bench = new SearchBench(dir, analysis, Categories.of(Map.of()));
                List<SearchBench.Prepared> prepared = phrases.stream().map(p -> bench.prepare(p, null))
                        .filter(p -> p.built().searchable()).toList();
                timed(prepared, 2, mx, bench::service);
                long[][] b = timed(prepared, rounds, mx, bench::service);
                long[][] a = timed(prepared, rounds, mx, p -> bench.raw(p, null));
                String row = String.format(Locale.ROOT, "| %s | %.2f | %.0f MB | %s / %s | %s / %s | %s / %s | %.2f |%n", v.getKey(), mbps,
                        size / 1e6, ms(b[1], 0.50), ms(b[0], 0.50), ms(b[1], 0.99), ms(b[0], 0.99), ms(a[1], 0.99), ms(a[0], 0.99),
                        java.util.Arrays.stream(b[1]).average().orElse(0) / 1e6);
                System.err.print(row);
                out.append(row);
                bench.close();
            } finally {
                SearchBench.deleteTree(dir);
            }
        }
        out.append("\nLoad average before / after: `").append(loadBefore).append("` / `")
                .append(Files.readString(Path.of("/proc/loadavg")).trim()).append("`\n");
        System.out.println(out);
        System.exit(0);
    }

    /** Per query and round: [0] wall nanoseconds, [1] CPU nanoseconds of this thread. */
    private static long[][] timed(List<SearchBench.Prepared> queries, int rounds, ThreadMXBean mx, SearchBench.Path2 path) throws Exception {
        long[][] out = new long[2][queries.size() * rounds];
        int k = 0;
        for (int r = 0; r < rounds; r++) {
            for (SearchBench.Prepared p : queries) {
                long c0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                path.run(p);
                out[0][k] = System.nanoTime() - t0;
                out[1][k++] = mx.getCurrentThreadCpuTime() - c0;
            }
        }
        return out;
    }

    private static String ms(long[] nanos, double quantile) {
        long[] sorted = nanos.clone();
        java.util.Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.2f", Percentiles.nearestRank(sorted, quantile * 100) / 1e6);
    }

    /** Two adjacent words of random pages, as an exact phrase (the bench-search phrase class). */
    private static List<String> phrases(List<PostDocument> docs, int n, Random random) {
        List<String> out = new ArrayList<>();
        while (out.size() < n) {
            String[] words = docs.get(random.nextInt(docs.size())).content().split("\\s+");
            if (words.length < 4) {
                continue;
            }
            int i = random.nextInt(words.length - 1);
            String a = words[i].replaceAll("[^\\p{L}\\p{N}]", "");
            String b = words[i + 1].replaceAll("[^\\p{L}\\p{N}]", "");
            if (a.length() >= 2 && b.length() >= 2) {
                out.add("\"" + a + " " + b + "\"");
            }
        }
        return out;
    }
}
