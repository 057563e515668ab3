package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Popular past searches become autocomplete entries (ADR 0038) against the real stack: a
 * phrase searched through nginx from two client addresses is not suggested; from the third (the
 * default threshold) it is, by raw, jamo and chosung prefixes on both nodes, from Redis; a
 * phrase one client hammers, a query with an operator and a query that found nothing never
 * are, even when as many clients send them. The test's own checks that pages are indexed
 * search other words, so this machine's address is never a counted client of the phrase.
 * Clients are real source addresses (127.0.0.x) as nginx sees them: fresh accounts count as their
 * address (ADR 0089), so three accounts made at one address, or three forged X-Real-IP headers,
 * are one client and suggest nothing; an operator can remove an entry for good.
 */
class PopularQueryIT {

    private static final Duration FLUSH = Duration.ofSeconds(2);
    private static final List<io.lettuce.core.api.sync.RedisCommands<String, String>> SHARDS =
            List.of(CacheShards.redis(1), CacheShards.redis(2), CacheShards.redis(3));

    @BeforeEach
    void keysAreComplete() {
        Autocomplete.awaitKeysComplete();
    }

    @Test
    void aPhraseIsSuggestedFromItsThirdClientAndJunkIsNot() throws InterruptedException {
        String word = Autocomplete.randomWord(4);
        String tag = Search.uniqueWord();
        String phrase = word + " " + tag;
        long post = Search.create(Search.uniqueWord() + " 인기 검색어", "본문에 " + phrase + " 이 있다");
        // One client hammering a phrase that finds a page.
        String hammeredWord = Autocomplete.randomWord(4);
        String hammeredTag = Search.uniqueWord();
        String hammered = hammeredWord + " " + hammeredTag;
        Search.create(Search.uniqueWord() + " 반복", "본문에 " + hammered + " 이 있다");
        // Query language (an exclusion) and a query that finds nothing, each from three clients.
        String operatorWord = Autocomplete.randomWord(4);
        String operatorTag = Search.uniqueWord();
        String withOperator = operatorWord + " -" + Search.uniqueWord();
        Search.create(Search.uniqueWord() + " 연산자", "본문에 " + operatorWord + " " + operatorTag + " 이 있다");
        String nothingWord = Autocomplete.randomWord(4);
        String findsNothing = nothingWord + " " + Search.uniqueWord();
        // Indexed on both nodes, checked by a word of each page that is none of the queries
        // counted below (a direct search counts this machine's address as a client of what it searched).
        for (String q : List.of(tag, hammeredTag, operatorTag)) {
            for (int n = 1; n <= 2; n++) {
                int node = n;
                Eventually.within(Duration.ofSeconds(10), q + " searchable on node" + node,
                        () -> !Search.idsOn(node, q).isEmpty());
            }
        }

        List<String> clients = List.of("127.0.0.11", "127.0.0.12", "127.0.0.13");
        for (int i = 0; i < 30; i++) {
            assertThat(results(null, hammered)).as("hammered search").isNotEmpty();
        }
        for (String client : clients) {
            assertThat(results(client, withOperator)).as("the search with an operator finds the page").isNotEmpty();
            assertThat(results(client, findsNothing)).isEmpty();
        }
        String raw = word.substring(0, 3);

        // Two clients: counted (the shared count says 2), yet not suggested.
        for (String client : clients.subList(0, 2)) {
            assertThat(results(client, phrase)).as("a counted search finds the page").contains(post);
        }
        Eventually.within(Duration.ofSeconds(15), "two clients of the phrase in the shared count",
                () -> distinctClients(phrase) == 2);
        Thread.sleep(FLUSH.multipliedBy(2)); // the flush that counted them has filed whatever it would
        for (int n = 1; n <= 2; n++) {
            Autocomplete.Answer a = Autocomplete.ask(n, raw);
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.queries()).as("suggested after two clients on node" + n).doesNotContain(phrase);
        }

        // The third client makes it popular: suggested on both nodes.
        assertThat(results(clients.get(2), phrase)).contains(post);
        long searched = System.nanoTime();
        Eventually.within(Duration.ofSeconds(15), "the phrase suggested on both nodes", () -> {
            for (int n = 1; n <= 2; n++) {
                if (!Autocomplete.ask(n, raw).queries().contains(phrase)) {
                    return false;
                }
            }
            return true;
        });
        // The delay is reported, not gated: ADR 0038's bound is a design figure, measured apart.
        System.out.printf("PopularQueryIT: phrase suggested on both nodes %d ms after its third client%n",
                Duration.ofNanos(System.nanoTime() - searched).toMillis());
        assertThat(distinctClients(phrase)).as("distinct clients of the phrase").isEqualTo(3);
        // The same entry by its jamo and chosung prefixes, from Redis (a read that missed its
        // 30 ms budget on this busy machine is answered by the index: ask again).
        String jamo = word.substring(0, 2) + Autocomplete.initial(word.charAt(2));
        String chosung = Autocomplete.chosung(word);
        for (String prefix : List.of(raw, jamo, chosung)) {
            for (int n = 1; n <= 2; n++) {
                int node = n;
                Eventually.within(Duration.ofSeconds(3), "the phrase suggested for " + prefix + " on node" + node, () -> {
                    Autocomplete.Answer a = Autocomplete.ask(node, prefix);
                    return a.status() == 200 && "redis".equals(a.source()) && a.queries().contains(phrase);
                });
            }
        }
        // Through nginx, in the contract's shape: the phrase is one of the strings.
        Http.Response r = Http.get(Stack.api() + "/posts/autocomplete?prefix=" + Http.enc(raw));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.data().valueStream().map(v -> v.asString()).toList()).contains(phrase);

        // An operator removes it: gone from both nodes at once, and a fourth client does not bring it back.
        Http.Response removed = Http.delete(Stack.node(1) + "/internal/autocomplete/queries?q=" + Http.enc(phrase));
        assertThat(removed.status()).as(removed.toString()).isEqualTo(200);
        for (int n = 1; n <= 2; n++) {
            assertThat(Autocomplete.ask(n, raw).queries()).as("removed, on node" + n).doesNotContain(phrase);
        }
        assertThat(results("127.0.0.14", phrase)).contains(post);
        Thread.sleep(FLUSH.multipliedBy(2));
        for (int n = 1; n <= 2; n++) {
            assertThat(Autocomplete.ask(n, raw).queries()).as("still removed, on node" + n).doesNotContain(phrase);
        }

        // Every node has flushed the junk by now (it was searched before the phrase): give the
        // slower one two more flushes, then none of it may be suggested.
        Thread.sleep(FLUSH.multipliedBy(2));
        for (String prefix : List.of(hammeredWord.substring(0, 3), operatorWord.substring(0, 3), nothingWord.substring(0, 3))) {
            for (int n = 1; n <= 2; n++) {
                Autocomplete.Answer a = Autocomplete.ask(n, prefix);
                assertThat(a.status()).isEqualTo(200);
                assertThat(a.queries()).as("query entries for " + prefix + " on node" + n).isEmpty();
            }
        }
    }

    @Test
    void threeFreshAccountsOrForgedAddressesFromOnePlaceAreOneClient() throws InterruptedException {
        String word = Autocomplete.randomWord(4);
        String tag = Search.uniqueWord();
        String phrase = word + " " + tag;
        long post = Search.create(Search.uniqueWord() + " 조작 시도", "본문에 " + phrase + " 이 있다");
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(Duration.ofSeconds(10), "searchable on node" + node, () -> !Search.idsOn(node, tag).isEmpty());
        }
        String place = "127.0.0.21";
        for (int i = 0; i < 3; i++) {
            Users.User fake = Users.signUp();
            Http.Response r = Http.call("GET", Stack.api() + "/posts/search?q=" + Http.enc(phrase)).from(place)
                    .header("Authorization", "Bearer " + fake.token).send();
            assertThat(r.status()).isEqualTo(200);
            Http.Response forged = Http.call("GET", Stack.api() + "/posts/search?q=" + Http.enc(phrase)).from(place)
                    .header("X-Real-IP", "203.0.113." + (i + 1)).header("X-Forwarded-For", "203.0.113." + (i + 1)).send();
            assertThat(forged.status()).isEqualTo(200);
            assertThat(forged.data().path("results").path("content").get(0).path("id").asLong()).isEqualTo(post);
        }
        Eventually.within(Duration.ofSeconds(15), "the place counted", () -> distinctClients(phrase) >= 1);
        Thread.sleep(FLUSH.multipliedBy(2));
        assertThat(distinctClients(phrase)).as("three fresh accounts and three forged addresses at one place").isEqualTo(1);
        for (int n = 1; n <= 2; n++) {
            assertThat(Autocomplete.ask(n, word.substring(0, 3)).queries()).as("node" + n).doesNotContain(phrase);
        }
    }

    /** The ids a first-page search through nginx found, from {@code source} (null: this machine's usual address). */
    private static List<Long> results(String source, String q) {
        String url = Stack.api() + "/posts/search?q=" + Http.enc(q);
        Http.Response r = source == null ? Http.get(url) : Http.call("GET", url).from(source).send();
        assertThat(r.status()).as("search " + q).isEqualTo(200);
        List<Long> ids = new ArrayList<>();
        for (var hit : r.data().path("results").path("content")) {
            ids.add(hit.path("id").asLong());
        }
        return ids;
    }

    /**
     * The shared count of distinct clients that searched {@code query} (ADR 0038): its
     * HyperLogLogs of the current and previous window, on whichever shard holds them.
     */
    private static long distinctClients(String query) {
        long window = System.currentTimeMillis() / Duration.ofHours(1).toMillis();
        long most = 0;
        for (var shard : SHARDS) {
            most = Math.max(most, shard.pfcount("hw:aq:" + window + ":" + query,
                    "hw:aq:" + (window - 1) + ":" + query));
        }
        return most;
    }
}
