package dev.hanwiki.autocomplete;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrefixKeysTest {

    private final PrefixKeys keys = new PrefixKeys(10);

    @Test
    void aTitleIsFiledUnderRawJamoAndChosungPrefixes() {
        Set<String> k = keys.keysOf("대한민국 헌법");
        assertThat(k).contains("r:대", "r:대한", "r:대한민국 ", "r:대한민국 헌법",
                "j:ㄷ", "j:ㄷㅐㅎ", "j:ㄷㅐㅎㅏ", "j:ㄷㅐㅎㅏㄴㅁ",
                "c:ㄷㅎ", "c:ㄷㅎㅁㄱ", "c:ㄷㅎㅁㄱㅎㅂ");
        // A keystroke prefix that ends on a syllable boundary is the raw key, not stored twice.
        assertThat(k).doesNotContain("j:ㄷㅐ", "j:ㄷㅐㅎㅏㄴ", "c:ㄷ");
    }

    @Test
    void onlyTheFirstMaxCharsGetKeys() {
        Set<String> k = new PrefixKeys(3).keysOf("abcdef");
        assertThat(k).containsExactly("r:a", "r:ab", "r:abc");
    }

    @Test
    void titlesAreNormalizedBeforeKeying() {
        assertThat(keys.keysOf("  Spring\t Boot ")).contains("r:spring b").doesNotContain("r: ", "r:spring  ");
        assertThat(keys.keysOf("   ")).isEmpty();
    }

    @Test
    void anUnfinishedSyllableLooksUpRawAndJamoKeys() {
        PrefixKeys.Lookup l = keys.lookup("대하");
        assertThat(l.keys()).containsExactly("r:대하", "j:ㄷㅐㅎㅏ");
        assertThat(l.matches("대한민국")).isTrue();
        assertThat(l.matches("대하소설")).isTrue();
        assertThat(l.matches("대구")).isFalse();
    }

    @Test
    void aTypedConsonantIsComposedTheWayTheInputMethodShowsIt() {
        assertThat(keys.lookup("대ㅎ").keys()).containsExactly("r:댛", "j:ㄷㅐㅎ");
        assertThat(keys.lookup("대ㅎ").matches("대한민국")).isTrue();
    }

    @Test
    void everyTypedStateOfATitleFindsItThroughItsOwnKeys() {
        String title = "대한민국 헌법";
        Set<String> filed = keys.keysOf(title);
        for (String typed : List.of("ㄷ", "대", "댛", "대하", "대한", "대한ㅁ", "대한미", "대한민", "ㄷㅎ", "ㄷㅎㅁㄱ", "대한민국 ",
                "대한민국 허", "대한민국 헌법")) {
            PrefixKeys.Lookup l = keys.lookup(typed);
            assertThat(l.matches(title)).as(typed).isTrue();
            assertThat(l.keys()).as(typed).anyMatch(filed::contains);
        }
    }

    @Test
    void consonantsOnlyAreAChosungLookup() {
        PrefixKeys.Lookup l = keys.lookup("ㄷㅎ ㅁ");
        assertThat(l.chosung()).isTrue();
        assertThat(l.keys()).containsExactly("c:ㄷㅎㅁ");
        assertThat(l.matches("대한민국")).isTrue();
        assertThat(l.matches("대한 민국")).isTrue();
        assertThat(l.matches("동해")).isFalse();
    }

    @Test
    void latinPrefixesUseRawKeysOnly() {
        PrefixKeys.Lookup l = keys.lookup("Spr");
        assertThat(l.keys()).containsExactly("r:spr");
        assertThat(l.matches("Spring Boot")).isTrue();
    }

    @Test
    void aPrefixLongerThanTheKeysIsCheckedInFull() {
        PrefixKeys.Lookup l = new PrefixKeys(3).lookup("abcdef");
        assertThat(l.keys()).containsExactly("r:abc");
        assertThat(l.truncated()).isTrue();
        assertThat(l.matches("abcdefg")).isTrue();
        assertThat(l.matches("abcxyz")).isFalse();
    }

    @Test
    void blankAndOddPrefixesNeverThrow() {
        assertThat(keys.lookup("   ").isEmpty()).isTrue();
        assertThat(keys.lookup("\u0000\u0007").isEmpty()).isTrue();
        assertThat(keys.lookup("\uD800").keys()).hasSize(1); // a lone surrogate is just a character
        assertThat(keys.lookup("%_*?[").keys()).containsExactly("r:%_*?[");
        assertThat(keys.lookup("ㅏ").matches("아")).isFalse();
    }

    @Test
    void theFallbackTermIsTheCertainPartOfTheFirstWord() {
        assertThat(TitleFallback.firstWord("대한")).isEqualTo("대하");
        assertThat(TitleFallback.firstWord("댛")).isEqualTo("대");
        assertThat(TitleFallback.firstWord("대ㅎ")).isEqualTo("대");
        assertThat(TitleFallback.firstWord("대한 민")).isEqualTo("대한");
        assertThat(TitleFallback.firstWord("(주")).isEqualTo("주");
        assertThat(TitleFallback.firstWord("spr")).isEqualTo("spr");
        assertThat(TitleFallback.firstWord("ㄷ")).isEmpty();
    }

    @Test
    void versionIsReadFromVersionedKeysOnly() {
        assertThat(VersionedKeys.versionOf("hw:ac:123:r:대")).isEqualTo(123);
        assertThat(VersionedKeys.versionOf("hw:ac:version")).isZero();
        assertThat(VersionedKeys.versionOf("hw:ac:lock")).isZero();
    }
}
