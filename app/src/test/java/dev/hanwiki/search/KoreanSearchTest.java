package dev.hanwiki.search;

import static dev.hanwiki.search.PostDocuments.inCategory;
import static dev.hanwiki.search.PostDocuments.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end through the Nori analysis, the query language and the index. */
class KoreanSearchTest {

    @TempDir
    Path dir;

    private TestSearch search;

    @BeforeEach
    void open() throws IOException {
        search = TestSearch.open(dir).add(
                post(1, "수도", "대한민국의 수도는 서울이다", 1),
                post(2, "부산 여행", "부산은 바다가 아름다운 항구 도시입니다", 1),
                post(3, "Spring Boot 안내", "Spring Boot로 서버를 만든다", 1),
                inCategory(4, "서울 맛집", "서울의 식당 목록", 7),
                post(5, "에어팟 사용기", "에어팟 프로를 한 달 써 보았다", 1),
                post(6, "인사말", "안녕하세요, 반갑습니다", 1),
                post(7, "삼성전자 실적", "삼성전자의 반도체 사업", 1),
                post(8, "전자 회로", "전자 부품과 회로 기초", 1),
                post(9, "Running", "Searching and running are verbs", 1));
    }

    @AfterEach
    void close() throws IOException {
        search.close();
    }

    @Test
    void particleAttachedNounIsFoundByTheBareNoun() {
        assertThat(search.ids("서울")).containsExactlyInAnyOrder(1L, 4L);
    }

    @Test
    void compoundProperNounIsFoundByItself() {
        assertThat(search.ids("대한민국")).containsExactly(1L);
    }

    @Test
    void partOfACompoundFindsTheCompound() {
        assertThat(search.ids("민국")).containsExactly(1L);
        assertThat(search.ids("전자")).containsExactlyInAnyOrder(7L, 8L);
    }

    @Test
    void wholeCompoundQueryDoesNotMatchItsPartsApart() {
        // 삼성전자 is one query term: a page about 전자 without 삼성전자 is not a match.
        assertThat(search.ids("삼성전자")).containsExactly(7L);
    }

    @Test
    void inflectedQueryMatchesTheSameStem() {
        assertThat(search.ids("대한민국의 수도")).containsExactly(1L);
    }

    @Test
    void allTermsMustMatchByDefault() {
        assertThat(search.ids("서울 부산")).isEmpty();
    }

    @Test
    void englishTermsAreCaseInsensitiveAndStemmed() {
        assertThat(search.ids("spring")).containsExactly(3L);
        assertThat(search.ids("run")).containsExactly(9L);
        assertThat(search.ids("searches")).containsExactly(9L);
    }

    @Test
    void airPodsIsSearchableWholeAndDoesNotShrinkToItsLastSyllable() {
        assertThat(search.ids("에어팟")).containsExactly(5L);
        assertThat(search.ids("팟")).isEmpty();
    }

    @Test
    void interjectionIsSearchable() {
        assertThat(search.ids("안녕")).containsExactly(6L);
    }

    @Test
    void titleMatchOutranksBodyMatch() {
        // Post 4 has 서울 in its title, post 1 only in its body.
        assertThat(search.ids("서울")).first().isEqualTo(4L);
    }

    @Test
    void categoryFilterKeepsOnlyThatCategory() {
        assertThat(search.ids("서울", 7L)).containsExactly(4L);
        assertThat(search.ids("서울", 8L)).isEmpty();
    }
}
