package dev.hanwiki.search.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KoreanKeyboardTest {

    @ParameterizedTest
    @CsvSource({
        "dkssud, 안녕",
        "dkssudgktpdy, 안녕하세요",
        "rudqhrrnd, 경복궁",
        "tjdnf, 서울",
        "'tjdnf dugod', 서울 여행",
        "dhkswjs, 완전",
        "RKcl, 까치",
        "rkqt, 값",
        "ekfrrhk, 닭과",
        "gksrmf, 한글",
        "dmlrhk, 의과"})
    void latinKeysComposeIntoSyllables(String typed, String hangul) {
        assertThat(KoreanKeyboard.toHangul(typed)).contains(hangul);
    }

    @ParameterizedTest
    @ValueSource(strings = {"java", "hello", "bcd", "aaaa", "q", "123", "서울", "tjdnfaa"})
    void textThatDoesNotSpellCompleteSyllablesIsNotRewritten(String typed) {
        // (Some English does spell Hangul: xyz is 툨. Whether to use it is the search's call,
        // made only when the Latin query finds little.)
        assertThat(KoreanKeyboard.toHangul(typed)).isEmpty();
    }

    @Test
    void composeShowsTypedJamoAsAnInputMethodWould() {
        assertThat(KoreanKeyboard.compose("ㄷㅐㅎ")).isEqualTo("댛");
        assertThat(KoreanKeyboard.compose("ㄷㅐㅎㅏ")).isEqualTo("대하");
        assertThat(KoreanKeyboard.compose("ㄷㅏㄹㄱ")).isEqualTo("닭");
        assertThat(KoreanKeyboard.compose("ㄷㅎ")).isEqualTo("ㄷㅎ");
        assertThat(KoreanKeyboard.compose("ab ㄱㅗㅏ!")).isEqualTo("ab 과!");
    }

    @Test
    void keystrokesSplitSyllablesCompoundVowelsAndFinals() {
        assertThat(KoreanKeyboard.keystrokes("대한")).isEqualTo("ㄷㅐㅎㅏㄴ");
        assertThat(KoreanKeyboard.keystrokes("닭과")).isEqualTo("ㄷㅏㄹㄱㄱㅗㅏ");
        assertThat(KoreanKeyboard.keystrokes("ㄳ a1")).isEqualTo("ㄱㅅ a1");
        assertThat(KoreanKeyboard.keystrokes("의 뷁")).isEqualTo("ㅇㅡㅣ ㅂㅜㅔㄹㄱ");
        assertThat(KoreanKeyboard.keystrokeEnds("대한")).containsExactly(2, 5);
    }

    @Test
    void composingTheKeystrokesOfTextGivesTheTextBack() {
        for (String text : java.util.List.of("대한민국", "닭과 의사", "값싼 뷁", "서울 여행 2025", "읽기")) {
            assertThat(KoreanKeyboard.compose(KoreanKeyboard.keystrokes(text))).as(text).isEqualTo(text);
        }
    }
}
