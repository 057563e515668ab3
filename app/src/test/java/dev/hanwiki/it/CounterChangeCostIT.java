package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Counters out of the page row (issue 13, ADR 0080): a like, an unlike or a view flush of a
 * 1 MiB page costs bytes, not the page, in the primary's binlog and in the change topic, and
 * still reaches both nodes' ranking and the counts they show.
 */
class CounterChangeCostIT {

    /**
     * A counter change reaches the ranking within the index's counter-write interval
     * ({@code hanwiki.search.counter-write-interval}, 5 s by default: ADR 0080, third amendment)
     * plus the usual write-to-search time.
     */
    private static final Duration RANKED = Duration.ofSeconds(10);

    /** Per counter change; before ADR 0080 one cost about 2 MiB (the row's before and after image). */
    private static final long BUDGET_BYTES = 2_048;

    @Test
    void likesAndViewFlushesOfALargePageCostBytesNotThePage() {
        Users.User user = Users.signUp();
        String word = Search.uniqueWord();
        long big = user.createPost("큰 문서 " + word, largePage(word));
        awaitIndexedOnBothNodes(word, big);
        awaitQuiet();

        long binlogBefore = binlogBytes();
        long kafkaBefore = topicBytes();
        int changes = 0;
        for (int i = 0; i < 3; i++) {
            assertThat(user.post(Stack.api() + "/posts/" + big + "/like", Map.of()).status()).isEqualTo(200);
            assertThat(user.delete(Stack.api() + "/posts/" + big + "/like").status()).isEqualTo(200);
            changes += 2;
        }
        for (int i = 0; i < 3; i++) {
            assertThat(Http.get(Stack.node(1) + "/api/v1.0/posts/" + big).status()).isEqualTo(200);
            sleep(Duration.ofMillis(1_600)); // one view flush (every second) per read
            changes++;
        }
        awaitQuiet();

        long binlog = binlogBytes() - binlogBefore;
        long kafka = topicBytes() - kafkaBefore;
        assertThat(binlog).as("primary binlog bytes for %d counter changes of a 1 MiB page", changes)
                .isLessThan(changes * BUDGET_BYTES);
        assertThat(kafka).as("change topic bytes for %d counter changes of a 1 MiB page", changes)
                .isLessThan(changes * BUDGET_BYTES);
    }

    @Test
    void aLikeReordersSearchAndShowsItsCountOnBothNodes() {
        Users.User author = Users.signUp();
        Users.User fan = Users.signUp();
        String word = Search.uniqueWord();
        long first = author.createPost("쌍둥이 " + word, "같은 본문 " + word);
        long second = author.createPost("쌍둥이 " + word, "같은 본문 " + word);
        awaitIndexedOnBothNodes(word, first);
        awaitIndexedOnBothNodes(word, second);
        // Equal pages: whichever order node 1 shows (a tie), node 2 shows the same.
        List<Long> initial = Search.idsOn(1, word);
        assertThat(initial).containsExactlyInAnyOrder(first, second);
        awaitOrderOnBothNodes(word, initial, "equal pages, tie order");
        long target = initial.get(1);
        long other = initial.get(0);

        assertThat(fan.post(Stack.api() + "/posts/" + target + "/like", Map.of()).status()).isEqualTo(200);
        awaitOrderOnBothNodes(word, List.of(target, other), "the liked page ranks first");
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(RANKED, "likeCount 1 in node" + n + "'s search results",
                    () -> likeCountInResults(node, word, target) == 1);
        }
        // Detail reads count views, which move popularity too: read both pages equally often
        // (once per node each), so the views alone leave them tied.
        assertThat(likeCountsOfDetails(target, other)).containsExactly(1L, 0L, 1L, 0L);

        assertThat(fan.delete(Stack.api() + "/posts/" + target + "/like").status()).isEqualTo(200);
        awaitOrderOnBothNodes(word, initial, "unliked: the tie order again");
        assertThat(likeCountsOfDetails(target, other)).containsExactly(0L, 0L, 0L, 0L);
    }

    /** likeCount of each page's detail on node 1, then node 2 (one read each). */
    private static List<Long> likeCountsOfDetails(long... ids) {
        List<Long> counts = new java.util.ArrayList<>();
        for (int n = 1; n <= 2; n++) {
            for (long id : ids) {
                counts.add(Http.get(Stack.node(n) + "/api/v1.0/posts/" + id).data().path("likeCount").asLong());
            }
        }
        return counts;
    }

    private static long likeCountInResults(int node, String word, long id) {
        Http.Response r = Http.get(Stack.node(node) + "/api/v1.0/posts/search?q=" + Http.enc(word));
        for (var hit : r.data().path("results").path("content")) {
            if (hit.path("id").asLong() == id) {
                return hit.path("likeCount").asLong();
            }
        }
        return -1;
    }

    private static void awaitOrderOnBothNodes(String word, List<Long> order, String what) {
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(RANKED, what + " on node" + n, () -> Search.idsOn(node, word).equals(order));
        }
    }

    private static void awaitIndexedOnBothNodes(String word, long id) {
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(Duration.ofSeconds(20), "post " + id + " indexed on node" + n, () -> Search.idsOn(node, word).contains(id));
        }
    }

    /** About 1 MiB of UTF-8 (Korean and ASCII lines), within the 1 Mi-character limit. */
    private static String largePage(String word) {
        String line = "서울 여행 기록: 경복궁과 북촌 한옥마을, then lunch near Insadong and a walk along Cheonggyecheon.\n";
        StringBuilder page = new StringBuilder(word).append('\n');
        while (page.length() * 2 < 1_048_576) { // about 1.4 bytes per character in this mix
            page.append(line);
        }
        return page.toString();
    }

    /** Waits until neither the binlog nor the change topic grew for 2 s (at most 30 s). */
    private static void awaitQuiet() {
        long[] last = {binlogBytes(), topicBytes()};
        long[] since = {System.nanoTime()};
        Eventually.within(Duration.ofSeconds(30), "binlog and change topic quiet", () -> {
            long[] now = {binlogBytes(), topicBytes()};
            if (now[0] != last[0] || now[1] != last[1]) {
                last[0] = now[0];
                last[1] = now[1];
                since[0] = System.nanoTime();
                return false;
            }
            return System.nanoTime() - since[0] > 2_000_000_000L;
        });
    }

    /** The sum of the primary's binlog file sizes (SHOW BINARY LOGS, as root over the socket). */
    private static long binlogBytes() {
        Path socket = Path.of(Stack.get("VAR")).resolve("mariadb/primary/mysqld.sock");
        Stack.Run run = Stack.run(List.of("mariadb", "--no-defaults", "-uroot", "--socket=" + socket, "-N", "-B", "-e", "SHOW BINARY LOGS"));
        assertThat(run.exitCode()).as(run.output()).isZero();
        return run.output().lines().filter(l -> !l.isBlank()).mapToLong(l -> Long.parseLong(l.split("\t")[1].trim())).sum();
    }

    /** The bytes of the posts change topic's log segments under the broker's data directory. */
    private static long topicBytes() {
        Path data = Path.of(Stack.get("VAR")).resolve("kafka/data");
        String topic = Stack.get("CDC_POSTS_TOPIC");
        try (Stream<Path> partitions = Files.list(data)) {
            return partitions.filter(p -> p.getFileName().toString().matches(java.util.regex.Pattern.quote(topic) + "-\\d+"))
                    .mapToLong(CounterChangeCostIT::segmentBytes).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long segmentBytes(Path partition) {
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(f -> f.toString().endsWith(".log")).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0; // a segment deleted by the cleaner meanwhile
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
