package dev.hanwiki.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;

/** Autocomplete as the integration tests ask it (AutocompleteIT, PopularQueryIT): words, answers, key state. */
final class Autocomplete {

    private Autocomplete() {
    }

    /** Title words nobody else has: six random syllables (a chosung of six is as unique). */
    static String randomWord(int syllables) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < syllables; i++) {
            sb.append((char) (0xAC00 + r.nextInt(11172)));
        }
        return sb.toString();
    }

    static String initial(char syllable) {
        if (syllable < 0xAC00 || syllable > 0xD7A3) {
            return "";
        }
        return String.valueOf("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ".charAt((syllable - 0xAC00) / (21 * 28)));
    }

    static String chosung(String word) {
        StringBuilder sb = new StringBuilder();
        for (char c : word.toCharArray()) {
            sb.append(initial(c));
        }
        return sb.toString();
    }

    /** One answer: ids in order (0 for a query entry), texts, kinds ({@code title} or {@code query}) and where it came from. */
    record Answer(int status, List<Long> ids, List<String> titles, List<String> kinds, String source) {

        /** The texts of the query entries in this answer. */
        List<String> queries() {
            List<String> queries = new ArrayList<>();
            for (int i = 0; i < titles.size(); i++) {
                if ("query".equals(kinds.get(i))) {
                    queries.add(titles.get(i));
                }
            }
            return queries;
        }
    }

    static Answer ask(int node, String prefix) {
        String base = node == 0 ? Stack.api() : Stack.node(node) + "/api/v1.0";
        Http.Response r = Http.get(base + "/posts/autocomplete?ids=true&prefix=" + Http.enc(prefix));
        List<Long> ids = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        if (r.status() == 200) {
            for (JsonNode s : r.data()) {
                ids.add(s.path("id").asLong());
                titles.add(s.path("title").asString());
                kinds.add(s.path("kind").asString());
            }
        }
        return new Answer(r.status(), ids, titles, kinds, r.header("X-Autocomplete-Source"));
    }

    static void awaitKeysComplete() {
        Eventually.within(Budgets.autocompleteRebuild().plusSeconds(30), "autocomplete keys complete on both nodes (no lost shard, no rebuild)", () -> {
            for (int n = 1; n <= 2; n++) {
                JsonNode v = Http.get(Stack.node(n) + "/internal/autocomplete/versions").data();
                if (v.path("current").asLong() == 0 || v.path("building").asLong() != 0 || !v.path("lostShards").isEmpty()) {
                    return false;
                }
            }
            return !rebuildRunning();
        });
    }

    static boolean rebuildRunning() {
        for (int n = 1; n <= 2; n++) {
            String state = Http.get(Stack.node(n) + "/internal/autocomplete/rebuild").data().path("state").asString();
            if (state.equals("RUNNING") || state.equals("SWITCHED")) {
                return true;
            }
        }
        return false;
    }
}
