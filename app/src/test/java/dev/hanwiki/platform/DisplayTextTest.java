package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DisplayTextTest {

    @Test
    void decomposedHangulBecomesOneSpelling() {
        String decomposed = "\u1100\u1161\u11A8"; // 각 as three conjoining jamo
        assertThat(DisplayText.normalize("title", decomposed)).isEqualTo("각");
        assertThat(DisplayText.normalize("title", "Cafe\u0301")).isEqualTo("Café");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "a\tb", "line\nbreak", "\u202Eevil", "x\u2066y\u2069", "\u200Fname", "\uFEFFbom", "a\u061Cb"})
    void controlAndBidiCharactersAreRefused(String value) {
        assertThatThrownBy(() -> DisplayText.normalize("title", value)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("title must not contain control or bidirectional");
    }

    @Test
    void ordinaryMixedTextPasses() {
        assertThat(DisplayText.normalize("title", "서울 여행 2025 — Seoul 🙂")).isEqualTo("서울 여행 2025 — Seoul 🙂");
    }

    @Test
    void contentMayBreakLinesButNotHoldNul() {
        DisplayText.refuseNul("content", "줄\n바꿈\t탭");
        assertThatThrownBy(() -> DisplayText.refuseNul("content", "a\u0000")).isInstanceOf(InvalidInputException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "p\u0430ypal", // Latin with a Cyrillic а
        "G\u043Eogle 검색", // Cyrillic о in a Latin word beside a Hangul one
        "\u03BFpen", // Greek omicron in a Latin word
        "12\u0663", // ASCII digits with an Arabic-Indic three
        "\uFF11\uFF12\u0033", // full-width digits with an ASCII one
        "i\u0307\u0307", // the same combining mark twice: invisible
    })
    void lookAlikeMixturesInAWordAreRefused(String value) {
        assertThatThrownBy(() -> DisplayText.normalize("title", value)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("title must not mix look-alike characters in one word");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u200Bdmin", "\u3164\u3164", "name\u2060", "soft\u00ADhyphen", "\uFFA0", "\u115F\u1160", "tag\uDB40\uDC41"})
    void invisibleCharactersAreRefused(String value) {
        assertThatThrownBy(() -> DisplayText.normalize("title", value)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("title must not contain invisible characters");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "카카오Talk 사용법", "K팝 2025", "大韓民國 대한민국 Korea", "東京タワー Tokyo", "Пушкин, Tolstoy와", "β-카로틴",
        "Ελλάδα 여행", "ㅋㅋㅋ 웃긴 글", "C++ 입문 (제2판)", "가족 👨\u200D👩\u200D👧 사진", "❤\uFE0F 좋아요", "١٢٣ عربي", "José Martí",
    })
    void realTitlesOfManyScriptsPass(String value) {
        assertThat(DisplayText.normalize("title", value)).isEqualTo(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0421\u043E\u0441", "\u0440\u0430\u0443\u0440\u0430\u0031", "\u0391\u0392\u0395"})
    void aNameInAnotherScriptThatReadsAsLatinIsRefused(String value) {
        assertThatThrownBy(() -> DisplayText.name("nickname", value)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("look-alike letters of another script");
    }

    @ParameterizedTest
    @ValueSource(strings = {"홍길동", "hong", "Сергей", "Ελλάδα", "김Kim", "José", "ㅎㅇ"})
    void ordinaryNamesPass(String value) {
        assertThat(DisplayText.name("nickname", value)).isEqualTo(value);
    }

    /** Any text at all, lone surrogates included, is either accepted or a clear 400: never another exception. */
    @Test
    void arbitraryTextIsAcceptedOrInvalidInputNeverAnError() {
        java.util.Random random = new java.util.Random(13);
        for (int i = 0; i < 20_000; i++) {
            char[] chars = new char[1 + random.nextInt(12)];
            for (int j = 0; j < chars.length; j++) {
                chars[j] = random.nextInt(4) == 0 ? (char) random.nextInt(0x10000) : (char) (0xAC00 + random.nextInt(11172));
            }
            String text = new String(chars);
            try {
                DisplayText.name("nickname", text);
            } catch (InvalidInputException expected) {
                assertThat(expected.getMessage()).startsWith("nickname must");
            }
        }
    }
}
