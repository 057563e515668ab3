package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.inCategory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.change.TermHashes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search answer's triggers (ADR 0099): a new page that shares none of them leaves the answer as
 * it was (the same hits, count and facets), and a page that changes the answer shares one. Checked
 * on every pair of a query language sample and a candidate new page, each added to its own copy of
 * the same small index, as the indexer adds a page (pre-analysed, its terms announced).
 */
class SearchTermsTest {

    @TempDir
    Path dir;

    /** The query-language pages (PostDocuments). */
    private static final List<PostDocument> BASE = PostDocuments.queryLanguagePages();

    /** Every base page twice (ids + 50): most queries then find at least {@link Suggestions#FEW} pages and look for no suggestion. */
    private static PostDocument[] base() {
        List<PostDocument> all = new ArrayList<>(BASE);
        BASE.forEach(p -> all.add(inCategory(p.id() + 50, p.title(), p.content(), p.categoryId())));
        return all.toArray(PostDocument[]::new);
    }

    private static final List<String> QUERIES = List.of(
            "경복궁", "조선 왕조", "\"조선 왕조\"", "경복궁 -서울", "intitle:경복궁", "경복궁 category:한국사",
            "휴대폰", "핸드폰", "ㄷㅎㅁㄱ", "대한민국 헌법 최고", "김치찌개", "인공지능", "서울 남산 경복궁 종로",
            "category:요리", "artificial intelligence", "법궁");

    /** New pages: some match some queries (by title, body, synonym, chosung), some match none. */
    private static final List<PostDocument> CANDIDATES = List.of(
            inCategory(101, "남산 타워", "서울 남산에 있는 탑이다.", 26),
            inCategory(102, "경복궁 야간 개장", "밤에 궁을 연다.", 7),
            inCategory(103, "스마트폰 배터리", "핸드폰 배터리를 오래 쓰는 법.", 17),
            inCategory(104, "된장찌개", "된장으로 끓인다.", 23),
            inCategory(105, "대한항공", "대한민국의 항공사.", 18),
            inCategory(106, "달 탐사", "달에 간 사람들의 이야기.", 14),
            inCategory(107, "왕조 실록", "조선 왕조 실록은 기록이다.", 7),
            inCategory(108, "AI 역사", "Artificial intelligence began in 1956.", 16));

    /** What a search answer shows, apart from the order of hits (collection statistics may move ties). */
    private record Shown(Set<Long> hits, long total, Map<Long, Long> facets, String suggestion) {
        static Shown of(SearchEngine.Result r) {
            Set<Long> ids = new TreeSet<>();
            r.hits().forEach(h -> ids.add(h.post().id()));
            return new Shown(ids, r.totalHits(), r.facets(), r.suggestion());
        }
    }

    @Test
    void aNewPageChangesAnAnswerOnlyIfItHoldsOneOfTheAnswersTriggers() throws IOException {
        int changed = 0;
        int untouched = 0;
        int withTriggers = 0;
        List<String> wrong = new ArrayList<>();
        for (PostDocument candidate : CANDIDATES) {
            Path copy = Files.createDirectory(dir.resolve("p" + candidate.id()));
            try (TestSearch search = TestSearch.open(copy).add(base())) {
                List<SearchEngine.Result> before = QUERIES.stream().map(search::search).toList();
                PostIndexWriter writer = search.index.writer();
                TermHashes added = writer.apply(candidate, false, () -> writer.analyze(candidate)).addedTerms();
                writer.refresh();
                assertThat(added).as("terms of a page new to the index").isNotNull();
                assertThat(added.size()).isGreaterThan(3);
                for (int i = 0; i < QUERIES.size(); i++) {
                    TermHashes triggers = before.get(i).triggers();
                    boolean differs = !Shown.of(before.get(i)).equals(Shown.of(search.search(QUERIES.get(i))));
                    if (triggers == null) {
                        continue;
                    }
                    withTriggers++;
                    boolean touched = shares(triggers, added);
                    if (differs && !touched) {
                        wrong.add(QUERIES.get(i) + " changed by page " + candidate.id() + " which holds none of its triggers");
                    }
                    changed += differs ? 1 : 0;
                    untouched += touched ? 0 : 1;
                }
            }
        }
        assertThat(wrong).isEmpty();
        // Not vacuous: answers were changed (each by a page holding a trigger), and others kept.
        // (Measured when written: 88 of 128 answers with triggers, 9 changed, 77 untouched.)
        assertThat(changed).isGreaterThanOrEqualTo(6);
        assertThat(untouched).isGreaterThan(QUERIES.size() * CANDIDATES.size() / 3);
        assertThat(withTriggers).isGreaterThan(QUERIES.size() * CANDIDATES.size() / 2);
    }

    private static boolean shares(TermHashes triggers, TermHashes added) {
        boolean[] any = {false};
        triggers.forEach(h -> any[0] |= added.contains(h));
        return any[0];
    }

    @Test
    void aRequiredClauseIsEnoughAndOptionalOnesCountOnlyWithoutOne() {
        TermQuery a = new TermQuery(new Term("content", "가"));
        TermQuery b = new TermQuery(new Term("content", "나"));
        TermQuery c = new TermQuery(new Term("title", "다"));
        BooleanQuery anyOf = new BooleanQuery.Builder().add(b, Occur.SHOULD).add(c, Occur.SHOULD).build();
        BooleanQuery both = new BooleanQuery.Builder().add(anyOf, Occur.MUST).add(a, Occur.MUST)
                .add(new MatchAllDocsQuery(), Occur.SHOULD).build();

        assertThat(SearchTerms.triggers(both)).isEqualTo(hashes(a)); // the smaller required clause
        assertThat(SearchTerms.triggers(anyOf)).isEqualTo(hashes(b, c));
        assertThat(SearchTerms.triggers(new BooleanQuery.Builder().add(anyOf, Occur.SHOULD)
                .add(new MatchAllDocsQuery(), Occur.SHOULD).build())).isNull();
        // a minimum of optional clauses: their union (the required one is unknown)
        assertThat(SearchTerms.triggers(new BooleanQuery.Builder().setMinimumNumberShouldMatch(1)
                .add(new MatchAllDocsQuery(), Occur.MUST).add(a, Occur.SHOULD).add(b, Occur.SHOULD).build())).isEqualTo(hashes(a, b));
    }

    @Test
    void shapesOfUnknownMatchesHaveNoTriggersAndNothingMatchesNothing() {
        TermQuery a = new TermQuery(new Term("content", "가"));
        assertThat(SearchTerms.triggers(new MatchAllDocsQuery())).isNull();
        assertThat(SearchTerms.triggers(new PrefixQuery(new Term("content", "가")))).isNull();
        assertThat(SearchTerms.triggers(new BooleanQuery.Builder().add(new MatchAllDocsQuery(), Occur.MUST)
                .add(a, Occur.MUST_NOT).build())).isNull();
        assertThat(SearchTerms.triggers(new MatchNoDocsQuery())).isEqualTo(TermHashes.of());
        assertThat(SearchTerms.triggers(new BooleanQuery.Builder().add(a, Occur.MUST_NOT).build())).isEqualTo(TermHashes.of());
    }

    @Test
    void theHashSeparatesFieldFromTerm() {
        assertThat(SearchTerms.hash("content", new BytesRef("가나")))
                .isEqualTo(SearchTerms.hash(new Term("content", "가나")))
                .isNotEqualTo(SearchTerms.hash("title", new BytesRef("가나")))
                .isNotEqualTo(SearchTerms.hash("conten", new BytesRef("t가나")));
    }

    @Test
    void answersThatLookedForSuggestionsHaveNoTriggers() throws IOException {
        try (TestSearch search = TestSearch.open(dir).add(BASE.toArray(PostDocument[]::new))) {
            assertThat(search.search("경복궁").triggers()).isNotNull();
            assertThat(search.search("경복긍").triggers()).as("few hits: suggestions depend on every term").isNull();
            assertThat(search.search("category:요리").triggers()).as("a category alone matches by no term").isNull();
        }
    }

    private static TermHashes hashes(TermQuery... queries) {
        long[] out = new long[queries.length];
        for (int i = 0; i < queries.length; i++) {
            out[i] = SearchTerms.hash(queries[i].getTerm());
        }
        return TermHashes.of(out);
    }
}
