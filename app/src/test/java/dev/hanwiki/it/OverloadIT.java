package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Graceful overload against the running stack (ADR 0093): a node driven far past its
 * concurrency limit (a burst of distinct, uncached list pages released at once) sheds the excess
 * at once with 503 OVERLOADED, Retry-After and a problem body, answers everything else, and
 * never fails in any other way; through nginx the shed answer reaches the client as the node
 * wrote it, from one node, not retried onto the other.
 * <p>
 * Node 1 runs with a limit of two for these tests (restarted with it, and restarted with the usual
 * settings after them). With the usual 32 and a backlog that hands each free slot to a waiter, a
 * warm node served a burst of 250 list pages without shedding any: a client on the same two cores
 * cannot send the burst faster than the node answers it. What is tested is the shed path, which
 * does not depend on the limit's size.
 */
class OverloadIT {

    private static final int BURST = 250;
    /** Node 1's limit for these tests: at most two admitted at once, never fewer than one. */
    private static final int NODE1_MIN_LIMIT = 1;
    private static final int NODE1_MAX_LIMIT = 2;

    @BeforeAll
    static void nodeOneWithALimitOfTwo() {
        Stack.infra(java.util.Map.of("HANWIKI_OVERLOAD_MINLIMIT", String.valueOf(NODE1_MIN_LIMIT),
                "HANWIKI_OVERLOAD_INITIALLIMIT", String.valueOf(NODE1_MAX_LIMIT),
                "HANWIKI_OVERLOAD_MAXLIMIT", String.valueOf(NODE1_MAX_LIMIT)), "ctl.sh", "restart", "node1");
    }

    /**
     * Two bursts at {@code base}, the second judged. The first compiles the shed path of a
     * just-started JVM and opens this client's connections (kept alive for the second): opening
     * 250 at once costs this client, on the same two cores, up to 0.7 s more than nginx's own
     * time for the request (nginx's access log: shed p50 0.13 s, max 0.26 s, where this client saw
     * 0.45 s and 0.93 s).
     */
    private static List<Answer> secondBurst(String base) throws Exception {
        burst(pages(base, BURST));
        return burst(pages(base, BURST));
    }

    @AfterAll
    static void nodeOneAsUsual() {
        Stack.infra("ctl.sh", "restart", "node1"); // the variables were set for the restart above only
    }

    record Answer(Http.Response response, long millis) {
        int status() {
            return response.status();
        }
    }

    /** {@code urls} requested at once (one thread each, released together); answers in order. */
    private static List<Answer> burst(List<String> urls) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Answer>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String url : urls) {
                futures.add(pool.submit(() -> {
                    go.await();
                    long start = System.nanoTime();
                    Http.Response r = Http.get(url);
                    return new Answer(r, (System.nanoTime() - start) / 1_000_000);
                }));
            }
            go.countDown();
            List<Answer> answers = new ArrayList<>();
            for (Future<Answer> f : futures) {
                answers.add(f.get());
            }
            return answers;
        }
    }

    /**
     * Distinct list pages (page and size vary, so no cache holds them; page x size stays within
     * the API's 10,000 of ADR 0087): each admitted one costs a replica query.
     */
    private static List<String> pages(String base, int count) {
        List<String> urls = new ArrayList<>();
        long salt = System.nanoTime();
        for (int i = 0; i < count; i++) {
            int size = 10 + (int) ((salt + i / 400) % 11);
            urls.add(base + "/posts?page=" + (i % 400) + "&size=" + size);
        }
        return urls;
    }

    private static double shedCount(int node) {
        return NodeMetrics.values(NodeMetrics.scrape(node).body(), "hanwiki_overload_requests_total", "outcome=\"shed\"").stream()
                .mapToDouble(Double::doubleValue).sum();
    }

    private static void assertShedWell(List<Answer> answers, String where) {
        List<Answer> shed = answers.stream().filter(a -> a.status() == 503).toList();
        List<Answer> served = answers.stream().filter(a -> a.status() == 200).toList();
        assertThat(answers.stream().filter(a -> a.status() != 200 && a.status() != 503).map(a -> a.response().toString()))
                .as(where + ": answers other than 200 and the shed 503").isEmpty();
        assertThat(shed).as(where + ": a burst of " + answers.size() + " is past the limit: some are shed").isNotEmpty();
        // The node's minimum limit is always admitted. The bound was the default 8 before node 1
        // ran at a limit of two: node 1 served only 10 of the burst in CI, and on a large corpus
        // (slower list pages) it serves fewer.
        assertThat(served.size()).as(where + ": at least the minimum limit is served").isGreaterThanOrEqualTo(NODE1_MIN_LIMIT);
        for (Answer a : shed) {
            assertThat(a.response().header("Content-Type")).as(where).startsWith("application/problem+json");
            assertThat(a.response().json().path("code").asString()).as(where + ": " + a.response()).isEqualTo("OVERLOADED");
            assertThat(Integer.parseInt(a.response().header("Retry-After"))).as(where).isBetween(1, 60);
            assertThat(a.response().json().path("retryAfterSeconds").asInt()).isEqualTo(Integer.parseInt(a.response().header("Retry-After")));
        }
        long[] shedMillis = shed.stream().mapToLong(Answer::millis).sorted().toArray();
        long median = shedMillis[shedMillis.length / 2];
        long max = shedMillis[shedMillis.length - 1];
        long slowest = answers.stream().mapToLong(Answer::millis).max().orElseThrow();
        System.out.printf("OverloadIT %s: %d served, %d shed (median %d ms, max %d ms), slowest answer %d ms%n",
                where, served.size(), shed.size(), median, max, slowest);
        // Issue 14's bound is the second. A shed answer waits at most the backlog's 100 ms in the
        // node; the rest is the CPU queue of two cores that also run the burst's client, nginx and
        // the other node.
        assertThat(median).as(where + ": a shed answer is fast (median, ms)").isLessThan(600);
        assertThat(max).as(where + ": no shed answer waits a second (ms)").isLessThan(1000);
        assertThat(slowest).as(where + ": nothing hangs (ms)").isLessThan(5000);
    }

    @Test
    void aNodeFarPastItsLimitShedsTheExcessFastAndFailsNothingElse() throws Exception {
        Http.get(Stack.node(1) + "/api/v1.0/posts?page=0&size=20"); // a warm node
        double shedBefore = shedCount(1);
        List<Answer> answers = secondBurst(Stack.node(1) + "/api/v1.0");
        assertShedWell(answers, "node1");
        long shed = answers.stream().filter(a -> a.status() == 503).count();
        assertThat(shedCount(1) - shedBefore).as("hanwiki_overload_requests_total{outcome=shed} on node1").isGreaterThanOrEqualTo(shed);
        // The node recovers at once: the next request is served.
        Eventually.within(Duration.ofSeconds(5), "node1 serves again",
                () -> Http.get(Stack.node(1) + "/api/v1.0/posts?page=0&size=20").status() == 200);
    }

    @Test
    void throughNginxTheShedAnswerPassesThroughFromOneNodeAndIsNotRetriedOnTheOther() throws Exception {
        List<Answer> answers = secondBurst(Stack.direct(Stack.api()));
        assertShedWell(answers, "nginx");
        for (Answer a : answers.stream().filter(x -> x.status() == 503).toList()) {
            // nginx's own 503 would be SERVICE_UNAVAILABLE; one upstream address means no second try.
            assertThat(a.response().header("X-Upstream")).as("upstreams tried").doesNotContain(",");
        }
    }
}
