package dev.hanwiki.autocomplete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.search.Popularity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Which searches may become autocomplete entries, how they are counted, and when they are popular (ADR 0038). */
class PopularQueryRulesTest {

    private static QuerySettings settings(int minClients) {
        return new QuerySettings(true, minClients, Duration.ofHours(1), Duration.ofHours(6), Duration.ofSeconds(2), 10,
                40, 10, 64, 2000, 10, Duration.ofDays(7));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "서울 여행|서울 여행",
        "  Spring\t\tBOOT  |spring boot",
        "대한민국 헌법|대한민국 헌법",
        "c++ 입문|c++ 입문",
        "rock'n'roll|rock'n'roll",
        "e-mail 설정|e-mail 설정",
        "아이폰 15 pro|아이폰 15 pro",
        "café|café",
        "서울\u0000여행|서울 여행"})
    void wordsAreKeptInTheTitlesNormalForm(String searched, String entry) {
        assertThat(QueryText.normalize(searched, 40)).contains(entry);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "a",                       // too short
        "\"서울 여행\"",           // a phrase operator
        "intitle:서울",            // a field operator
        "category:여행 서울",
        "서울 -부산",              // an exclusion
        "+서울",
        "(서울 OR 부산)",
        "서*",
        "ㅋㅋㅋ",                  // unfinished typing / noise
        "ㄷㅎㅁㄱ",                // a chosung search
        "대한ㅁ",
        "12345",                   // no letter
        "하하하하하",              // one character repeated
        "aaaa",
        "http://example",          // not words
        "me@example.com",
        "one two three four five six seven", // too many words
        "서울\u200b여행",          // an invisible format character
        "🙂🙂"})
    void queryLanguageNoiseAndTypingStatesAreRefused(String searched) {
        assertThat(QueryText.normalize(searched, 40)).as(searched).isEmpty();
    }

    @Test
    void queriesLongerThanTheLimitAreRefused() {
        assertThat(QueryText.normalize("가".repeat(2) + "나".repeat(3) + "다".repeat(3), 8)).isPresent();
        assertThat(QueryText.normalize("가나다라마바사아자차", 9)).isEmpty();
        assertThat(QueryText.normalize(null, 40)).isEmpty();
    }

    @Test
    void aClientCountsOncePerQueryHoweverOftenItSearches() {
        QueryTally tally = new QueryTally(100, 64, 10);
        for (int i = 0; i < 1000; i++) {
            tally.add("서울 여행", "hammer");
        }
        tally.add("서울 여행", "b");
        assertThat(tally.drain()).isEqualTo(Map.of("서울 여행", Set.of("hammer", "b")));
        assertThat(tally.drain()).as("a drain starts afresh").isEmpty();
    }

    @Test
    void oneClientSprayingQueriesFillsOnlyItsOwnQuota() {
        QueryTally tally = new QueryTally(100, 64, 3);
        List<QueryTally.Outcome> outcomes = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            outcomes.add(tally.add("junk " + i, "sprayer"));
        }
        assertThat(outcomes).containsExactly(QueryTally.Outcome.COUNTED, QueryTally.Outcome.COUNTED,
                QueryTally.Outcome.COUNTED, QueryTally.Outcome.CAPPED, QueryTally.Outcome.CAPPED);
        assertThat(tally.add("junk 0", "someone else")).isEqualTo(QueryTally.Outcome.COUNTED);
        assertThat(tally.drain()).hasSize(3);
    }

    @Test
    void theTallyIsBoundedInQueriesAndClientsPerQuery() {
        QueryTally tally = new QueryTally(2, 3, 10);
        assertThat(tally.add("q1", "a")).isEqualTo(QueryTally.Outcome.COUNTED);
        assertThat(tally.add("q2", "a")).isEqualTo(QueryTally.Outcome.COUNTED);
        assertThat(tally.add("q3", "a")).isEqualTo(QueryTally.Outcome.CAPPED);
        assertThat(tally.add("q1", "b")).isEqualTo(QueryTally.Outcome.COUNTED);
        assertThat(tally.add("q1", "c")).isEqualTo(QueryTally.Outcome.COUNTED);
        assertThat(tally.add("q1", "d")).isEqualTo(QueryTally.Outcome.CAPPED);
        assertThat(tally.add("q1", "a")).isEqualTo(QueryTally.Outcome.REPEATED);
        assertThat(tally.drain().get("q1")).containsExactly("a", "b", "c");
    }

    @Test
    void aQueryIsPopularFromMinClientsAndScoredPerClient() {
        QuerySettings s = settings(3);
        assertThat(s.popular(2)).isFalse();
        assertThat(s.popular(3)).isTrue();
        assertThat(s.score(3)).isEqualTo(30.0);
        // On the titles' scale: a page with 30 views, or 3 likes.
        assertThat(s.score(3)).isEqualTo(Popularity.score(30, 0)).isEqualTo(Popularity.score(0, 3));
    }

    @Test
    void anEntryIsRefiledWhenNewOrWhenItsScoreMovedEnough() {
        QuerySettings s = settings(3);
        assertThat(s.refile(null, 30)).isTrue();
        assertThat(s.refile(30.0, 30)).isFalse();
        assertThat(s.refile(30.0, 35)).isFalse();
        assertThat(s.refile(30.0, 40)).isTrue();
        assertThat(s.refile(100.0, 70)).isTrue();
        assertThat(s.remember()).isEqualTo(Duration.ofMinutes(90));
    }

    @Test
    void inconsistentSettingsFailAtStartUp() {
        assertThatThrownBy(() -> new QuerySettings(true, 5, Duration.ofHours(1), Duration.ofHours(6),
                Duration.ofSeconds(2), 10, 40, 10, 4, 2000, 10, Duration.ofDays(7))).hasMessageContaining("clients-per-query");
        assertThatThrownBy(() -> new QuerySettings(true, 3, Duration.ofSeconds(10), Duration.ofHours(6),
                Duration.ofSeconds(2), 10, 40, 10, 64, 2000, 10, Duration.ofDays(7))).hasMessageContaining("window");
        assertThatThrownBy(() -> new QuerySettings(true, 3, Duration.ofHours(1), Duration.ofMinutes(30),
                Duration.ofSeconds(2), 10, 40, 10, 64, 2000, 10, Duration.ofDays(7))).hasMessageContaining("ttl");
    }

    @Test
    void membersOfQueriesNeverLookLikePostIds() {
        String member = QueryStore.member("서울 여행");
        assertThat(member).matches("q[0-9a-f]{16}");
        assertThat(QueryStore.isQueryMember(member)).isTrue();
        assertThat(QueryStore.isQueryMember("12345")).isFalse();
        assertThat(QueryStore.member("서울 여행")).isEqualTo(member);
        assertThat(QueryStore.recordKey(7, member)).isEqualTo("hw:ac:7:q:" + member.substring(1, 3));
        assertThat(TitleStore.recordKeyOf(7, "130")).isEqualTo("hw:ac:7:t:2");
        assertThat(PopularQueries.clientId("u:1")).hasSize(16).isNotEqualTo(PopularQueries.clientId("u:2"));
    }

    @Test
    void queryRecordsCarryTheirExpiry() {
        QueryStore.Entry e = QueryStore.parse(TitleStore.bytes("1700000000000:30.0:서울: 여행"));
        assertThat(e).isEqualTo(new QueryStore.Entry("서울: 여행", 30.0, 1_700_000_000_000L));
        assertThat(QueryStore.parse(TitleStore.bytes("garbage"))).isNull();
        assertThat(QueryStore.parse(TitleStore.bytes("x:y:z"))).isNull();
        assertThat(QueryStore.parse(null)).isNull();
    }

    @Test
    void answersMixTitlesAndQueriesByScoreAndDropQueriesThatReadLikeATitle() {
        long now = 1_000;
        var title = AutocompleteService.Candidate.of("5", TitleStore.bytes("3:40.0:Spring Boot"), now);
        var sameAsTitle = AutocompleteService.Candidate.of(QueryStore.member("spring boot"),
                TitleStore.bytes("9000:90.0:spring boot"), now);
        var query = AutocompleteService.Candidate.of(QueryStore.member("spring batch"),
                TitleStore.bytes("9000:50.0:spring batch"), now);
        var tiedQuery = AutocompleteService.Candidate.of(QueryStore.member("spring cloud"),
                TitleStore.bytes("9000:40.0:spring cloud"), now);
        var expired = AutocompleteService.Candidate.of(QueryStore.member("spring old"),
                TitleStore.bytes("999:80.0:spring old"), now);
        var tombstone = AutocompleteService.Candidate.of("6", TitleStore.bytes("-Spring Data"), now);
        assertThat(expired).isNull();
        assertThat(tombstone).isNull();
        List<AutocompleteService.Candidate> kept =
                AutocompleteService.Candidate.withoutQueriesEqualToTitles(List.of(title, sameAsTitle, query, tiedQuery));
        kept.sort(AutocompleteService.Candidate.ORDER);
        assertThat(kept.stream().map(AutocompleteService.Candidate::suggestion).toList()).containsExactly(
                Suggestion.ofQuery("spring batch"), Suggestion.ofTitle(5, "Spring Boot"), Suggestion.ofQuery("spring cloud"));
    }
}
