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
}
