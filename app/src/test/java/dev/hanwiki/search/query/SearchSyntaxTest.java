package dev.hanwiki.search.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.search.query.Clause.Kind;
import org.junit.jupiter.api.Test;

class SearchSyntaxTest {

    @Test
    void plainWordsPhrasesAndOperators() {
        assertThat(SearchSyntax.parse("서울 \"경복궁 야경\" -인파 intitle:궁궐 category:여행")).containsExactly(
                new Clause(Kind.WORD, "서울", false),
                new Clause(Kind.PHRASE, "경복궁 야경", false),
                new Clause(Kind.WORD, "인파", true),
                new Clause(Kind.TITLE, "궁궐", false),
                new Clause(Kind.CATEGORY, "여행", false));
    }

    @Test
    void operatorsTakeQuotedValuesAndNegation() {
        assertThat(SearchSyntax.parse("intitle:\"조선 왕조\" -category:\"세계 지리\" -\"a b\"")).containsExactly(
                new Clause(Kind.TITLE, "조선 왕조", false),
                new Clause(Kind.CATEGORY, "세계 지리", true),
                new Clause(Kind.PHRASE, "a b", true));
    }

    @Test
    void operatorNamesAreCaseInsensitive() {
        assertThat(SearchSyntax.parse("InTitle:x CATEGORY:y")).extracting(Clause::kind).containsExactly(Kind.TITLE, Kind.CATEGORY);
    }

    @Test
    void unclosedQuoteRunsToTheEnd() {
        assertThat(SearchSyntax.parse("a \"b c")).containsExactly(
                new Clause(Kind.WORD, "a", false), new Clause(Kind.PHRASE, "b c", false));
    }

    @Test
    void loneOperatorsAndEmptyQuotesAreIgnored() {
        assertThat(SearchSyntax.parse("- + -- intitle: category: \"\" \" \" x")).containsExactly(new Clause(Kind.WORD, "x", false));
    }

    @Test
    void consonantOnlyWordIsAChosungClause() {
        assertThat(SearchSyntax.parse("ㄷㅎㅁㄱ 헌법")).containsExactly(
                new Clause(Kind.CHOSUNG, "ㄷㅎㅁㄱ", false), new Clause(Kind.WORD, "헌법", false));
        assertThat(SearchSyntax.parse("ㄱ")).containsExactly(new Clause(Kind.WORD, "ㄱ", false));
    }

    @Test
    void clausesAndTheirLengthAreBounded() {
        assertThat(SearchSyntax.parse("a ".repeat(1000))).hasSize(SearchSyntax.MAX_CLAUSES);
        assertThat(SearchSyntax.parse("x".repeat(5000)).getFirst().text()).hasSize(SearchSyntax.MAX_CLAUSE_CHARS);
        assertThat(SearchSyntax.parse("😀".repeat(80)).getFirst().text()).hasSize(SearchSyntax.MAX_CLAUSE_CHARS);
    }

    @Test
    void nullAndBlankParseToNothing() {
        assertThat(SearchSyntax.parse(null)).isEmpty();
        assertThat(SearchSyntax.parse(" \t ")).isEmpty();
    }
}
