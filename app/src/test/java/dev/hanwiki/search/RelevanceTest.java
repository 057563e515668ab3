package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judged relevance set: 46 queries over 83 hand-written pages (relevance/pages.tsv) hidden
 * among 2,000 generated ones sampled from the corpus word lists, with graded judgments
 * (relevance/judgments.tsv: 3 = the page that should come first, 2 = very relevant,
 * 1 = relevant). The pages are built to be confusable: shared titles (수도, 김치 and its
 * low-traffic copy), topics mentioned in many bodies (서울, 경복궁), Korean and English
 * versions of one topic, homonyms (기생충 the film and the parasite).
 * <p>
 * Reported: success@1 (the grade-3 page is first), success@5 (it is in the top five) and the
 * mean NDCG@10 (gain 2^grade - 1). Today's ranking scores 1.000 / 1.000 / 0.964 (ADR 0021).
 * The thresholds leave room for about three queries to lose their first place (43/46 = 0.935),
 * one to drop out of the top five (45/46 = 0.978) and a few points of NDCG: enough for a
 * deliberate trade-off in a ranking change, not for a regression that users would notice
 * (every miss here is a query whose one obviously right page is not on top).
 */
class RelevanceTest {

    static final double MIN_SUCCESS_AT_1 = 0.93;
    static final double MIN_SUCCESS_AT_5 = 0.97;
    static final double MIN_NDCG_AT_10 = 0.92;
    private static final int DISTRACTORS = 2_000;

    @TempDir
    static Path dir;

    private static TestSearch search;
    private static final Map<String, Long> ids = new HashMap<>();
    private static final Map<Long, String> keys = new HashMap<>();

    record Judged(String query, Long categoryId, Map<String, Integer> grades) {
    }

    @BeforeAll
    static void index() throws IOException {
        search = TestSearch.open(dir);
        long id = 1;
        for (String line : lines("/relevance/pages.tsv")) {
            String[] f = line.split("\t");
            Instant created = LocalDate.parse(f[4]).atStartOfDay(ZoneOffset.UTC).toInstant();
            preAnalysed(new PostDocument(id, f[5], f[6], Long.parseLong(f[1]), 1, Long.parseLong(f[2]),
                    Long.parseLong(f[3]), created, created, 1));
            ids.put(f[0], id);
            keys.put(id, f[0]);
            id++;
        }
        for (PostDocument distractor : Distractors.generate(DISTRACTORS, 10_000)) {
            preAnalysed(distractor);
        }
        search.index.writer().refresh();
    }

    /**
     * Indexed the way the change stream indexes with more than one analysis thread: analysed
     * first, then written from the captured tokens (ADR 0097; PreAnalysisEqualityTest shows the
     * index is the same as the IndexWriter's own analysis gives).
     */
    private static void preAnalysed(PostDocument post) {
        PostIndexWriter writer = search.index.writer();
        writer.apply(post, true, () -> writer.analyze(post));
    }

    @AfterAll
    static void close() throws IOException {
        search.close();
    }

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = RelevanceTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        }
    }

    private static List<Judged> judgments() throws IOException {
        List<Judged> out = new ArrayList<>();
        for (String line : lines("/relevance/judgments.tsv")) {
            String[] f = line.split("\t");
            Map<String, Integer> grades = new LinkedHashMap<>();
            for (String g : f[2].trim().split("\\s+")) {
                String[] kv = g.split(":");
                if (!ids.containsKey(kv[0])) {
                    throw new IllegalStateException("judgment for unknown page " + kv[0]);
                }
                grades.put(kv[0], Integer.parseInt(kv[1]));
            }
            out.add(new Judged(f[0], f[1].equals("-") ? null : Long.parseLong(f[1]), grades));
        }
        return out;
    }

    @Test
    void judgedQueriesRankTheirBestPagesFirst() throws IOException {
        List<Judged> judged = judgments();
        int success1 = 0;
        int success5 = 0;
        double ndcgSum = 0;
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT, "%-22s %5s %7s  %s%n", "query", "best@", "ndcg10", "top 5"));
        for (Judged j : judged) {
            List<Long> ranked = search.ids(j.query(), j.categoryId());
            int best = j.grades().values().stream().mapToInt(Integer::intValue).max().orElse(0);
            int rankOfBest = -1;
            for (int i = 0; i < ranked.size(); i++) {
                if (j.grades().getOrDefault(keys.getOrDefault(ranked.get(i), ""), 0) == best) {
                    rankOfBest = i + 1;
                    break;
                }
            }
            success1 += rankOfBest == 1 ? 1 : 0;
            success5 += rankOfBest >= 1 && rankOfBest <= 5 ? 1 : 0;
            double ndcg = ndcg(ranked, j.grades());
            ndcgSum += ndcg;
            report.append(String.format(Locale.ROOT, "%-22s %5s %7.3f  %s%n", j.query() + (j.categoryId() == null ? "" : " [" + j.categoryId() + "]"),
                    rankOfBest < 0 ? "-" : Integer.toString(rankOfBest), ndcg,
                    ranked.stream().limit(5).map(i -> keys.getOrDefault(i, "#" + i)).toList()));
        }
        double s1 = (double) success1 / judged.size();
        double s5 = (double) success5 / judged.size();
        double ndcg = ndcgSum / judged.size();
        report.append(String.format(Locale.ROOT, "%n%d judged queries: success@1 %.3f (min %.2f), success@5 %.3f (min %.2f), NDCG@10 %.3f (min %.2f)%n",
                judged.size(), s1, MIN_SUCCESS_AT_1, s5, MIN_SUCCESS_AT_5, ndcg, MIN_NDCG_AT_10));
        System.out.println(report);
        Files.writeString(Path.of("target", "relevance-report.txt"), report);

        assertThat(judged).hasSizeGreaterThanOrEqualTo(30);
        assertThat(s1).as("success@1\n%s", report).isGreaterThanOrEqualTo(MIN_SUCCESS_AT_1);
        assertThat(s5).as("success@5\n%s", report).isGreaterThanOrEqualTo(MIN_SUCCESS_AT_5);
        assertThat(ndcg).as("NDCG@10\n%s", report).isGreaterThanOrEqualTo(MIN_NDCG_AT_10);
    }

    private static double ndcg(List<Long> ranked, Map<String, Integer> grades) {
        double dcg = 0;
        for (int i = 0; i < Math.min(10, ranked.size()); i++) {
            int g = grades.getOrDefault(keys.getOrDefault(ranked.get(i), ""), 0);
            dcg += (Math.pow(2, g) - 1) / (Math.log(i + 2) / Math.log(2));
        }
        int[] ideal = grades.values().stream().mapToInt(Integer::intValue).sorted().toArray();
        double idcg = 0;
        for (int i = 0; i < Math.min(10, ideal.length); i++) {
            int g = ideal[ideal.length - 1 - i];
            idcg += (Math.pow(2, g) - 1) / (Math.log(i + 2) / Math.log(2));
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    /**
     * Noise pages from the same word lists as the corpus generator (infra/corpus/data), so
     * that term statistics look like a real wiki's and judged pages must beat real competition.
     */
    static final class Distractors {

        private static final String[] PARTICLES = {"", "", "", "은", "는", "이", "가", "을", "를", "의", "에", "에서", "로"};

        static List<PostDocument> generate(int n, long firstId) throws IOException {
            Path data = Path.of(System.getProperty("hanwiki.root", "..")).resolve("infra/corpus/data");
            Words ko = Words.read(data.resolve("words-ko.tsv"), 20_000, true);
            Words en = Words.read(data.resolve("words-en.tsv"), 20_000, false);
            SplittableRandom random = new SplittableRandom(7);
            List<PostDocument> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                boolean korean = random.nextInt(10) < 8;
                Words words = korean ? ko : en;
                StringBuilder title = new StringBuilder();
                for (int w = 2 + random.nextInt(3); w > 0; w--) {
                    title.append(title.isEmpty() ? "" : " ").append(words.sample(random));
                }
                StringBuilder body = new StringBuilder();
                for (int w = 30 + random.nextInt(120); w > 0; w--) {
                    body.append(words.sample(random));
                    if (korean) {
                        body.append(PARTICLES[random.nextInt(PARTICLES.length)]);
                    }
                    body.append(w % 12 == 0 ? ". " : " ");
                }
                Instant created = Instant.parse("2019-01-01T00:00:00Z").plusSeconds(random.nextLong(200_000_000L));
                long views = (long) (20 / Math.pow(1 - random.nextDouble(), 1 / 1.15)) - 20;
                out.add(new PostDocument(firstId + i, title.toString(), body.toString(), 1L + random.nextInt(30), 1,
                        views, views / 40, created, created, 1));
            }
            return out;
        }

        private record Words(String[] words, double[] cumulative) {
            static Words read(Path file, int limit, boolean korean) throws IOException {
                List<String> w = new ArrayList<>();
                List<Double> c = new ArrayList<>();
                double total = 0;
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    if (line.startsWith("#") || w.size() >= limit) {
                        continue;
                    }
                    String[] f = line.split("\t");
                    if (korean && f[0].length() < 2) {
                        continue; // morphemes, not words
                    }
                    total += Double.parseDouble(f[1]);
                    w.add(f[0]);
                    c.add(total);
                }
                return new Words(w.toArray(String[]::new), c.stream().mapToDouble(Double::doubleValue).toArray());
            }

            String sample(SplittableRandom random) {
                double x = random.nextDouble() * cumulative[cumulative.length - 1];
                int i = Arrays.binarySearch(cumulative, x);
                return words[i >= 0 ? i : -i - 1];
            }
        }
    }
}
