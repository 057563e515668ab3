package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PayloadAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ADR 0097's proof: a page analysed beforehand (on another thread, its tokens captured and
 * replayed) is indexed exactly like a page the IndexWriter analyses itself. The same posts are
 * written both ways into two in-memory indexes with the same configuration (one segment each,
 * no merges), which must then hold the same terms, postings (documents, frequencies, positions,
 * offsets, payloads), norms, stored fields and doc values ({@link IndexComparison}). The posts:
 * the judged relevance pages, generated pages from the corpus word lists, and edge cases.
 */
class PreAnalysisEqualityTest {

    private static final SearchAnalysis ANALYSIS = new SearchAnalysis(SearchSettings.at(Path.of("target", "unused-index")));
    private static ExecutorService otherThreads;

    @BeforeAll
    static void startThreads() {
        otherThreads = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stopThreads() {
        otherThreads.shutdownNow();
    }

    /** Pages that exercise what the chains do at their edges; ids from 900,000. */
    static List<PostDocument> edgeCases() {
        String longPage = "경복궁은 1395년 태조 이성계가 세운 조선 왕조의 법궁이다. 근정전, 경회루, 향원정이 있으며 "
                + "임진왜란 때 불탄 뒤 흥선대원군이 다시 지었다. The palace of the the people of Seoul in 2024. ";
        List<PostDocument> posts = new ArrayList<>();
        long id = 900_000;
        posts.add(page(id++, "빈 본문", ""));
        posts.add(page(id++, "공백뿐인 본문", "  \n\t  "));
        posts.add(page(id++, "!!! ??? ...", "제목이 문장 부호뿐이다. 초성이 없다."));
        posts.add(page(id++, "大韓民國 憲法", "大韓民國은 民主共和國이다. 한자(漢字)와 한글을 섞어 쓴다: 國語, 學校."));
        posts.add(page(id++, "BTS 2024 월드투어 iPhone15 서울", "BTS가 2024년 NASA와 협업? iPhone15Pro를 3.5GHz로. "
                + "Spring Boot 4.0 and Lucene 10, 서울시 강남구 테헤란로 123-45번지."));
        posts.add(page(id++, "일 하는 사람 생각", "우리는 일을 하는 사람이다. 사람의 생각은 시작이 반이다. the end of a time in the world "
                + "and a man of the people. 사용 시간 대표 일 하 해 말."));
        posts.add(page(id++, "긴 문서", longPage.repeat(400)));
        posts.add(page(id++, "Hello World", "A title without Hangul has no chosung field; running searches searched."));
        posts.add(page(id++, "ＡＢＣ １２３ 전각 ｶﾀｶﾅ", "ＦＵＬＬ　ＷＩＤＴＨ 문자와 반각 ｶﾀｶﾅ, 전각 숫자 １２３."));
        posts.add(page(id++, "이모지 😀 테스트", "😀 이모지와 𝐀𝐁 수학 글자, 그리고 ㄱㄴㄷ 자모와 ㅋㅋㅋ."));
        posts.add(page(id++, "대한민국 헌법 제1조", "대한민국은 민주공화국이다. 대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다."));
        posts.add(page(id++, "a", "a"));
        posts.add(page(id++, "삼성전자 반도체", "삼성전자의 반도체 사업, 전자 회로, 에어팟 프로를 한 달 써 보았다. 안녕하세요!"));
        // The same id twice: the second replaces the first (a deleted document in the segment).
        posts.add(page(900_000, "빈 본문 고침", "이제 본문이 있다", 2));
        return posts;
    }

    private static PostDocument page(long id, String title, String content) {
        return page(id, title, content, 1);
    }

    private static PostDocument page(long id, String title, String content, long version) {
        Instant created = Instant.parse("2024-01-02T03:04:05.123456Z");
        return new PostDocument(id, title, content, id % 3 == 0 ? null : id % 30 + 1, 7, id % 1000, id % 50,
                created, created.plusSeconds(version), version);
    }

    /** The judged pages, generated pages and the edge cases, in that order. */
    static List<PostDocument> corpusSample() throws IOException {
        List<PostDocument> posts = new ArrayList<>();
        long id = 1;
        for (String line : lines("/relevance/pages.tsv")) {
            String[] f = line.split("\t");
            Instant created = LocalDate.parse(f[4]).atStartOfDay(ZoneOffset.UTC).toInstant();
            posts.add(new PostDocument(id++, f[5], f[6], Long.parseLong(f[1]), 1, Long.parseLong(f[2]),
                    Long.parseLong(f[3]), created, created, 1));
        }
        posts.addAll(RelevanceTest.Distractors.generate(500, 10_000));
        posts.addAll(edgeCases());
        return posts;
    }

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = PreAnalysisEqualityTest.class.getResourceAsStream(resource)) {
            return new String(Objects.requireNonNull(in, resource).readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        }
    }

    /** The same configuration for both indexes: the node's analyzer, one segment, no merges. */
    private static IndexWriterConfig config() {
        return new IndexWriterConfig(ANALYSIS.indexAnalyzer())
                .setRAMBufferSizeMB(256)
                .setMergePolicy(NoMergePolicy.INSTANCE);
    }

    private static PostCounters counters(PostDocument post) {
        return new PostCounters(post.viewCount(), post.likeCount(), 0);
    }

    /** Writes {@code docs} in order with updateDocument by id, as PostIndexWriter does, and commits. */
    private static void write(Directory dir, List<PostDocument> posts, List<Document> docs) throws IOException {
        try (IndexWriter writer = new IndexWriter(dir, config())) {
            for (int i = 0; i < posts.size(); i++) {
                writer.updateDocument(PostFields.idTerm(posts.get(i).id()), docs.get(i));
            }
            writer.commit();
        }
    }

    /** Every post analysed on the other threads (as the indexer's workers do), in order. */
    private static List<PreAnalyzedPost> analysedElsewhere(List<PostDocument> posts) throws Exception {
        Analyzer analyzer = ANALYSIS.indexAnalyzer();
        List<Future<PreAnalyzedPost>> futures = new ArrayList<>();
        for (PostDocument post : posts) {
            futures.add(otherThreads.submit(() -> PreAnalyzedPost.analyze(post, analyzer)));
        }
        List<PreAnalyzedPost> analysed = new ArrayList<>();
        for (Future<PreAnalyzedPost> future : futures) {
            analysed.add(future.get());
        }
        return analysed;
    }

    @Test
    void aPreAnalysedPageIsIndexedExactlyLikeOneTheWriterAnalyses() throws Exception {
        List<PostDocument> posts = corpusSample();
        List<Document> plain = new ArrayList<>();
        List<Document> preAnalysed = new ArrayList<>();
        List<PreAnalyzedPost> analysed = analysedElsewhere(posts);
        for (int i = 0; i < posts.size(); i++) {
            plain.add(PostFields.toDocument(posts.get(i), counters(posts.get(i))));
            preAnalysed.add(PostFields.toDocument(posts.get(i), counters(posts.get(i)), analysed.get(i)));
        }

        try (Directory byWriter = new ByteBuffersDirectory(); Directory byTokens = new ByteBuffersDirectory()) {
            write(byWriter, posts, plain);
            write(byTokens, posts, preAnalysed);
            try (DirectoryReader expected = DirectoryReader.open(byWriter); DirectoryReader actual = DirectoryReader.open(byTokens)) {
                assertThat(expected.leaves()).as("one segment, compared document by document").hasSize(1);
                assertThat(expected.numDocs()).isEqualTo(posts.size() - 1); // one id written twice
                assertThat(expected.leaves().getFirst().reader().terms(PostFields.CHOSUNG).size())
                        .as("the sample has chosung terms").isPositive();
                assertThat(IndexComparison.firstDifference(expected, actual)).as("first difference").isNull();
            }
        }
    }

    @Test
    void theReplayReportsEveryTokenAndTheEndAsTheAnalyzerDid() throws Exception {
        Analyzer analyzer = ANALYSIS.indexAnalyzer();
        List<PostDocument> posts = new ArrayList<>(edgeCases());
        posts.addAll(RelevanceTest.Distractors.generate(50, 20_000));
        List<PreAnalyzedPost> analysed = analysedElsewhere(posts);
        int fields = 0;
        for (PreAnalyzedPost post : analysed) {
            for (int i = 0; i < post.fields().size(); i++) {
                PostFields.AnalyzedField field = post.fields().get(i);
                try (TokenStream original = analyzer.tokenStream(field.name(), field.text());
                        TokenStream replay = post.tokens(i).replay()) {
                    String where = "post " + post.post().id() + ", field " + field.name();
                    assertThat(streamSeen(replay)).as(where).isEqualTo(streamSeen(original));
                }
                fields++;
            }
        }
        assertThat(fields).isGreaterThan(posts.size() * 3);
    }

    /** Every token as FieldInvertState reads it, then the state end() leaves. */
    private static List<String> streamSeen(TokenStream stream) throws IOException {
        TermToBytesRefAttribute term = stream.getAttribute(TermToBytesRefAttribute.class);
        TermFrequencyAttribute frequency = stream.addAttribute(TermFrequencyAttribute.class);
        PositionIncrementAttribute increment = stream.addAttribute(PositionIncrementAttribute.class);
        OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
        PayloadAttribute payload = stream.getAttribute(PayloadAttribute.class);
        List<String> seen = new ArrayList<>();
        stream.reset();
        while (stream.incrementToken()) {
            BytesRef bytes = payload == null ? null : payload.getPayload();
            seen.add(term.getBytesRef().utf8ToString() + " +" + increment.getPositionIncrement() + " " + offset.startOffset()
                    + "-" + offset.endOffset() + " tf=" + frequency.getTermFrequency()
                    + (bytes == null || bytes.length == 0 ? "" : " payload=" + bytes));
        }
        stream.end();
        seen.add("end +" + increment.getPositionIncrement() + " " + offset.startOffset() + "-" + offset.endOffset());
        return seen;
    }

    /**
     * A field with two values: the second one's positions and offsets start after the first's
     * end() (its final position increment and offset, then the analyzer's gaps), so the end of a
     * capture reaches the index here. Our documents have one value per field; kept exact anyway.
     */
    @Test
    void theEndOfEachValueCarriesOverToTheNextValueOfTheField() throws Exception {
        Analyzer analyzer = ANALYSIS.indexAnalyzer();
        String first = "서울의 궁궐은 아름답다 그리고   ";
        String second = "경복궁과 창덕궁, 서울의 궁궐.";
        Document plain = new Document();
        plain.add(new Field(PostFields.CONTENT, first, PostFields.CONTENT_TYPE));
        plain.add(new Field(PostFields.CONTENT, second, PostFields.CONTENT_TYPE));
        PostFields.AnalyzedField field = PostFields.analyzedFields(PostDocuments.post(1, "t", first, 1)).get(1);
        Document preAnalysed = new Document();
        for (String text : List.of(first, second)) {
            preAnalysed.add(new Field(PostFields.CONTENT, CapturedTokens.capture(analyzer, PostFields.CONTENT, text).replay(),
                    field.tokensType()));
            preAnalysed.add(new org.apache.lucene.document.StoredField(PostFields.CONTENT, text));
        }
        try (Directory byWriter = new ByteBuffersDirectory(); Directory byTokens = new ByteBuffersDirectory()) {
            write(byWriter, List.of(PostDocuments.post(1, "t", "x", 1)), List.of(plain));
            write(byTokens, List.of(PostDocuments.post(1, "t", "x", 1)), List.of(preAnalysed));
            try (DirectoryReader expected = DirectoryReader.open(byWriter); DirectoryReader actual = DirectoryReader.open(byTokens)) {
                assertThat(IndexComparison.firstDifference(expected, actual)).as("first difference").isNull();
            }
        }
    }

    @Test
    void theCaptureIsCompact() {
        PostDocument post = edgeCases().stream().filter(p -> p.title().equals("긴 문서")).findFirst().orElseThrow();
        PreAnalyzedPost analysed = PreAnalyzedPost.analyze(post, ANALYSIS.indexAnalyzer());
        CapturedTokens content = analysed.tokens(1);

        System.out.printf("captured %d tokens of a %d-character page in %d bytes (%.1f a token)%n", content.size(),
                post.content().length(), content.bytes(), (double) content.bytes() / content.size());
        assertThat(content.size()).isGreaterThan(10_000);
        // UTF-8 term bytes plus a few bytes of position and offsets per token.
        assertThat((double) content.bytes() / content.size()).isLessThan(16);
    }
}
