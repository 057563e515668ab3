package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A word a page was written with finds the page. Nori reads an unknown word by the best path
 * through the whole text, so the word's last syllable may read differently before a noun than
 * at the end of a query: 짐친컬 alone is 짐·치·컬, but in "짐친컬 여행기" 컬 reads as 커 + the
 * adnominal ㄹ (a word that modifies 여행기). Random words of common syllables (the ones the
 * browser test types) hit this one time in five, on a page of one's own title.
 */
class WordInContextTest {

    @TempDir
    Path dir;

    private static final int[] CHO = {0, 2, 3, 5, 6, 7, 9, 11, 12, 14, 15, 16, 17, 18};
    private static final int[] JUNG = {0, 4, 8, 13, 18, 20};
    private static final int[] JONG = {0, 1, 4, 8, 16, 17, 21};

    private static String word(Random random, int syllables) {
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < syllables; i++) {
            w.append((char) (0xAC00 + (CHO[random.nextInt(CHO.length)] * 21 + JUNG[random.nextInt(JUNG.length)]) * 28
                    + JONG[random.nextInt(JONG.length)]));
        }
        return w.toString();
    }

    @Test
    void aWordFindsThePageWhoseTitleAndTextUseItBeforeOtherWords() throws IOException {
        Random random = new Random(20261126);
        Set<String> words = new LinkedHashSet<>(List.of("짐친컬", "골럼둔", "흠널곤", "핀블그"));
        while (words.size() < 300) {
            words.add(word(random, 2 + random.nextInt(3)));
        }
        List<String> list = new ArrayList<>(words);
        try (TestSearch search = TestSearch.open(dir)) {
            for (int i = 0; i < list.size(); i++) {
                String w = list.get(i);
                // the word before a noun, before a verb, with a particle's comma, and ending a sentence
                search.add(post(i + 1, w + " 여행기", w + " 마을은 서울에서 멀다. 우리는 " + w + ", 그리고 " + w + " 간다. 끝은 " + w, 1));
            }
            List<String> lost = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                if (!search.ids(list.get(i)).contains((long) i + 1)) {
                    lost.add(list.get(i));
                }
            }
            assertThat(lost).as("words that do not find their own page, of %d", list.size()).isEmpty();
        }
    }

    @Test
    void aWordOnlyInOnePlaceOfTheTextFindsItWhereverItStands() throws IOException {
        List<String> words = List.of("짐친컬", "골럼둔", "흠널곤", "핀블그");
        String[] texts = {"%s 여행기", "그곳은 %s 마을", "%s 가다", "%s.", "%s, 그리고", "%s\n둘째 줄"};
        try (TestSearch search = TestSearch.open(dir)) {
            long id = 1;
            for (String w : words) {
                for (String text : texts) {
                    search.add(post(id++, "제목", text.formatted(w), 1));
                }
            }
            id = 1;
            for (String w : words) {
                List<Long> found = search.ids(w);
                for (String text : texts) {
                    assertThat(found).as("%s in \"%s\"", w, text.formatted(w).replace("\n", "\\n")).contains(id++);
                }
            }
        }
    }

    /**
     * After another word, the first syllable of a word Nori does not know may read as a
     * conjugated verb: in "본문에 냄죠늜즪" 냄 is 내 + nominal ㄹ, in "본문에 늘텬퀱돻" an ending is
     * dropped after 늘 and leaves a gap. Words of any syllables (as the integration tests draw
     * them) lost their page this way about one time in 150 in each context; the contexts here
     * are none of the ones the query analyzes the word in.
     */
    @Test
    void aWordOfAnySyllablesFindsThePageWhereItFollowsAnotherWord() throws IOException {
        Random random = new Random(20261129);
        Set<String> words = new LinkedHashSet<>(List.of("냄죠늜즪", "늘텬퀱돻", "쏴풍슓숻", "릿쮓륧걵"));
        while (words.size() < 1000) {
            StringBuilder w = new StringBuilder();
            for (int i = 0; i < 4; i++) {
                w.append((char) (0xAC00 + random.nextInt(11172)));
            }
            words.add(w.toString());
        }
        String[] texts = {"본문에 %s hwtag 이 있다", "서울에서 %s 를 찾았다", "오늘 %s 이야기", "그녀의 %s", "했다. %s 는"};
        List<String> list = new ArrayList<>(words);
        try (TestSearch search = TestSearch.open(dir)) {
            for (int t = 0; t < texts.length; t++) {
                for (int i = 0; i < list.size(); i++) {
                    search.index.writer().upsert(post(t * 10_000L + i + 1, "제목", texts[t].formatted(list.get(i)), 1));
                }
            }
            search.index.writer().refresh();
            List<String> lost = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                List<Long> found = search.ids(list.get(i));
                for (int t = 0; t < texts.length; t++) {
                    if (!found.contains(t * 10_000L + i + 1)) {
                        lost.add(texts[t].formatted(list.get(i)));
                    }
                }
            }
            assertThat(lost).as("pages not found by their word, of %d", list.size() * texts.length).isEmpty();
        }
    }
}
