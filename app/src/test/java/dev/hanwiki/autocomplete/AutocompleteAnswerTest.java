package dev.hanwiki.autocomplete;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the members read from the title and query keys, and their records, become an answer or a fallback (ADR 0035, 0038, 0039). */
class AutocompleteAnswerTest {

    private static final long NOW = 1_000_000;
    private static final PrefixKeys.Lookup SPRING = new PrefixKeys(10).lookup("spring");

    private static byte[] title(String text, double score) {
        return TitleStore.bytes("1:" + score + ":" + text);
    }

    private static byte[] query(String text, double score) {
        return TitleStore.bytes((NOW + 60_000) + ":" + score + ":" + text);
    }

    @Test
    void aTitleMemberWhoseRecordIsGoneSendsTheAnswerToTheIndex() {
        // Post 6's record hash was evicted: an answer of the others would silently lack it.
        var answer = AutocompleteService.decide(List.of("5", "6", QueryStore.member("spring batch")),
                Arrays.asList(title("Spring Boot", 40), null, query("spring batch", 50)), false, SPRING, 10, NOW);
        assertThat(answer.answer()).isNull();
        assertThat(answer.reason()).isEqualTo("missing-record");
    }

    @Test
    void aQueryMemberWhoseRecordIsGoneIsLeftOut() {
        var answer = AutocompleteService.decide(List.of("5", QueryStore.member("spring batch")),
                Arrays.asList(title("Spring Boot", 40), null), false, SPRING, 10, NOW);
        assertThat(answer.answer()).containsExactly(Suggestion.ofTitle(5, "Spring Boot"));
    }

    @Test
    void liveQueriesDoNotMakeAFullTitleKeyComplete() {
        // A full title key (20 places) whose live titles cannot fill 10 answers: titles beyond
        // the kept 20 may belong in the answer, so the index answers, however many queries there are.
        List<String> members = new ArrayList<>();
        List<byte[]> records = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            members.add(Integer.toString(i));
            records.add(title("Spring " + i, i));
        }
        for (int i = 6; i <= 20; i++) {
            members.add(Integer.toString(i));
            records.add(TitleStore.bytes("-Spring " + i)); // deleted
        }
        for (int i = 1; i <= 10; i++) {
            members.add(QueryStore.member("spring q" + i));
            records.add(query("spring q" + i, 100 + i));
        }
        assertThat(AutocompleteService.decide(members, records, true, SPRING, 10, NOW).reason()).isEqualTo("incomplete");
        // The same members in a title key that is not full: every title there is, with the queries, by score.
        var answer = AutocompleteService.decide(members, records, false, SPRING, 10, NOW).answer();
        assertThat(answer).hasSize(10).allMatch(s -> s.kind().equals("query"));
        var few = AutocompleteService.decide(members.subList(0, 5).stream().toList(), records.subList(0, 5), false,
                SPRING, 10, NOW).answer();
        assertThat(few).extracting(Suggestion::id).containsExactly(5L, 4L, 3L, 2L, 1L);
    }

    @Test
    void anUnavailableTitleRecordFallsBackAndAnUnavailableQueryRecordIsLeftOut() {
        assertThat(AutocompleteService.decide(List.of("5"), Arrays.asList(TitleStore.UNAVAILABLE), false, SPRING, 10, NOW)
                .reason()).isEqualTo("unavailable");
        var answer = AutocompleteService.decide(List.of("5", QueryStore.member("spring batch")),
                Arrays.asList(title("Spring Boot", 40), TitleStore.UNAVAILABLE), false, SPRING, 10, NOW);
        assertThat(answer.answer()).containsExactly(Suggestion.ofTitle(5, "Spring Boot"));
    }
}
