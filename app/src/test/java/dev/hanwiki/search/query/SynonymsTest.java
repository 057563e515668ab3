package dev.hanwiki.search.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class SynonymsTest {

    /** Stands in for the query analyzer: lower case, split on spaces. */
    private static List<String> analyze(String text) {
        return text.isBlank() ? List.of() : Arrays.asList(text.toLowerCase(Locale.ROOT).split("\\s+"));
    }

    @Test
    void equivalentEntriesFindEachOther() {
        Synonyms s = Synonyms.parse("휴대폰, 핸드폰, Phone", SynonymsTest::analyze);

        assertThat(s.of(List.of("휴대폰"))).containsExactly(List.of("핸드폰"), List.of("phone"));
        assertThat(s.of(List.of("phone"))).containsExactly(List.of("휴대폰"), List.of("핸드폰"));
    }

    @Test
    void oneWayEntriesDoNotGoBack() {
        Synonyms s = Synonyms.parse("폰 => 휴대폰", SynonymsTest::analyze);

        assertThat(s.of(List.of("폰"))).containsExactly(List.of("휴대폰"));
        assertThat(s.of(List.of("휴대폰"))).isEmpty();
    }

    @Test
    void multiWordEntriesAreTermSequences() {
        Synonyms s = Synonyms.parse("# comment\n\nai, artificial intelligence\n", SynonymsTest::analyze);

        assertThat(s.of(List.of("artificial", "intelligence"))).containsExactly(List.of("ai"));
        assertThat(s.longestEntry()).isEqualTo(2);
    }

    @Test
    void lineWithASingleEntryIsRejectedWithItsLineNumber() {
        assertThatThrownBy(() -> Synonyms.parse("a, b\nlonely\n", SynonymsTest::analyze))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2");
    }
}
