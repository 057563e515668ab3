package dev.hanwiki.search.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HangulTest {

    @ParameterizedTest
    @CsvSource({
        "대한민국, ㄷㅎㅁㄱ",
        "경복궁, ㄱㅂㄱ",
        "갤럭시S24, ㄱㄹㅅs24",
        "'서울 여행', ㅅㅇㅇㅎ",
        "까치, ㄲㅊ"})
    void chosungTakesTheInitialOfEverySyllable(String text, String expected) {
        assertThat(Hangul.chosung(text)).isEqualTo(expected);
    }

    @Test
    void onlyTypedConsonantsOfTwoOrMoreMakeAChosungWord() {
        assertThat(Hangul.isChosungWord("ㄷㅎㅁㄱ")).isTrue();
        assertThat(Hangul.isChosungWord("ㄱ")).isFalse();
        assertThat(Hangul.isChosungWord("ㄷㅎ민국")).isFalse();
        assertThat(Hangul.isChosungWord("ㅏㅏ")).isFalse(); // vowels
    }

    @Test
    void jamoRoundTrip() {
        assertThat(Hangul.toJamo("한")).hasSize(3);
        assertThat(Hangul.fromJamo(Hangul.toJamo("안녕하세요 hello"))).isEqualTo("안녕하세요 hello");
    }

    @Test
    void jamoDistanceCountsJamoNotSyllables() {
        assertThat(Hangul.jamoDistance("한국", "헌국")).isEqualTo(1); // one vowel
        assertThat(Hangul.jamoDistance("경복궁", "경복쿵")).isEqualTo(1); // ㄱ for ㅋ
        assertThat(Hangul.jamoDistance("한국", "곰국")).isEqualTo(3);
        assertThat(Hangul.jamoDistance("서울", "서울")).isZero();
    }
}
