package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hosts A, B and M as network namespaces (ADR 0051): every process binds its host's address
 * only, cross-host calls cross real links, and cutting or crashing host B under writes loses
 * nothing acknowledged. Needs the host topology: it fails (never skips) on a local stack.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the destructive drills last
class HostTopologyIT {

    private static final String[] HOSTS = {"A", "B", "M"};

    @BeforeAll
    static void needsTheHostTopology() {
        assertThat(Stack.topology()).as("HostTopologyIT needs HANWIKI_TOPOLOGY=hosts (the default of make up/test)")
                .isEqualTo("hosts");
    }

    /** Runs a command inside host h's network namespace. */
    static Stack.Run onHost(String h, String... cmd) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", Stack.get("HOSTS_NETNS_PREFIX") + h.toLowerCase()));
        all.addAll(List.of(cmd));
        return Stack.run(all);
    }

    @Test
    @Order(1)
    void everyListenerIsOnItsHostsAddressOrLoopbackNeverAWildcard() {
        for (String h : HOSTS) {
            Stack.Run ss = onHost(h, "ss", "-ltnH");
            assertThat(ss.exitCode()).as(ss.output()).isZero();
            String own = Stack.get("HOST_" + h + "_ADDR");
            List<String> listeners = ss.output().lines().filter(l -> !l.isBlank())
                    .map(l -> l.trim().split("\\s+")[3]).toList();
            assertThat(listeners).as("host " + h + " listens somewhere").isNotEmpty();
            for (String local : listeners) {
                String address = local.substring(0, local.lastIndexOf(':'));
                assertThat(address).as("host %s listener %s (all: %s)", h, local, listeners)
                        .isIn(own, "127.0.0.1", "[::ffff:" + own + "]", "[::ffff:127.0.0.1]");
            }
        }
    }

    @Test
    @Order(2)
    void aPostWrittenThroughNginxOnASearchableOnNode2OnBWithinTwoSeconds() {
        String word = Search.uniqueWord();
        long id = Search.create("호스트 경계 " + word, "두 호스트 사이의 링크를 건너 색인된다 " + word);
        Eventually.within(Duration.ofSeconds(2), "post " + id + " searchable on node2 (host B)",
                () -> Search.idsOn(2, word).contains(id));
    }

    @Test
    @Order(3)
    void theOtherServiceHostIsRefusedNode1sActuatorAndInternalCallsWhileHostMIsNot() {
        String actuator = Stack.management(1) + "/actuator/health";
        String internal = Stack.node(1) + "/internal/index/stats";
        assertThat(curlStatus("B", actuator)).as("B -> node1 actuator").isEqualTo("403");
        assertThat(curlStatus("B", internal)).as("B -> node1 /internal").isEqualTo("403");
        assertThat(curlStatus("M", actuator)).as("M (Prometheus' host) -> node1 actuator").isEqualTo("200");
        // The API port serves no actuator at all.
        assertThat(Http.get(Stack.node(1) + "/actuator/health").status()).isIn(403, 404);
    }

    @Test
    @Order(4)
    void hostBIsolatedUnderWritesReadsAndWritesGoOnThenBothIndexesConverge() throws Exception {
        Stack.awaitNginxRoutesToBothNodes();
        AtomicBoolean reading = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        List<String> failedReads = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread reader = Thread.ofPlatform().name("it-reader").start(() -> {
            while (reading.get()) {
                reads.incrementAndGet();
                try {
                    Http.Response r = Http.get(Stack.api() + "/posts/search?q=" + Http.enc("서울"));
                    if (r.status() != 200) {
                        failedReads.add(r.toString());
                    }
                } catch (RuntimeException e) {
                    failedReads.add(e.toString()); // no answer within the client's 15 s
                }
            }
        });
        BackgroundWriter writer = new BackgroundWriter(Search.uniqueWord(), 20);
        try (writer) {
            writer.awaitMore(10, Duration.ofSeconds(10));
            Stack.infra("ctl.sh", "isolate", "B");
            try {
                // Writes go to the primary on A; CDC (Kafka on B) stops meanwhile.
                writer.awaitMore(100, Duration.ofSeconds(30));
            } finally {
                Stack.infra("ctl.sh", "heal", "B");
            }
            writer.awaitMore(10, Duration.ofSeconds(20));
        } finally {
            reading.set(false);
            reader.join(30_000);
        }
        assertThat(failedReads).as("reads through nginx while B was cut off (%d reads)", reads.get()).isEmpty();
        // The writer is sequential: at most the one write in flight on node2 when the link went
        // down can fail (nginx never resends a POST it has sent); nothing else is refused.
        assertThat(writer.refused()).as("refused writes; last: " + writer.lastRefusal()).isLessThanOrEqualTo(1);
        // Connections that outlived the cut resume only at their next TCP retransmission (the
        // backoff grew while the link was down), so convergence takes tens of seconds: printed.
        long healed = System.nanoTime();
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(120));
        System.out.printf("host B isolated: %d reads, both indexes equal to the primary %.1f s after the last write (B healed before it)%n",
                reads.get(), (System.nanoTime() - healed) / 1e9);
    }

    /**
     * A cut-off node is found by one request, then left alone for nginx's fail_timeout (5 s), then
     * tried again with a live request. A write tried there must go on to the other node: sent on
     * a connection opened before the cut, it would time out and fail (nginx never resends a POST
     * it has sent), so nginx must have closed those idle connections before it tries the node
     * again (nginx/nginx.conf, upstream keepalive_timeout).
     */
    @Test
    @Order(5)
    void aWriteThatReachesACutOffNodeAfterItsFailWindowIsAnsweredByTheOtherNode() throws Exception {
        Stack.awaitNginxRoutesToBothNodes();
        Users.User user = Users.shared(); // signed in before the cut: the login is a POST too
        String node2 = Stack.hostPort("NODE2");
        // Idle connections from both nginx workers to both nodes: rounds of parallel reads over
        // as many client connections, which the workers share between them.
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(16)) {
            for (int round = 0; round < 8; round++) {
                List<java.util.concurrent.Future<Http.Response>> reads = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    reads.add(pool.submit(() -> Http.get(Stack.api() + "/posts/search?q=" + Http.enc("서울"))));
                }
                for (var read : reads) {
                    assertThat(read.get().status()).isEqualTo(200);
                }
            }
        }
        String word = Search.uniqueWord();
        List<String> refused = new ArrayList<>();
        int triedOnNode2 = 0;
        Stack.infra("ctl.sh", "isolate", "B");
        try {
            // One read finds node2 cut off (connect or read timeout), moves to node1, and takes
            // node2 out of the pool for fail_timeout.
            Eventually.within(Duration.ofSeconds(20), "a read that tried node2 first, then node1", () -> {
                Http.Response r = Http.get(Stack.api() + "/categories");
                assertThat(r.status()).as(r.toString()).isEqualTo(200);
                return r.header("X-Upstream").startsWith(node2);
            });
            Thread.sleep(6_000); // past fail_timeout: nginx tries node2 again with the next request
            for (int i = 0; i < 6; i++) {
                var r = user.post(Stack.api() + "/posts", java.util.Map.of("title", "끊긴 호스트 " + i + " " + word,
                        "content", "다른 노드가 받는다 " + word));
                if (r.status() != 201) {
                    refused.add(r.toString());
                }
                if (r.header("X-Upstream").startsWith(node2)) {
                    triedOnNode2++;
                }
            }
        } finally {
            Stack.infra("ctl.sh", "heal", "B");
        }
        assertThat(refused).as("writes after node2's fail window, B still cut off").isEmpty();
        // nginx's own 503 page carries no X-Upstream: counted only once every write was answered.
        assertThat(triedOnNode2).as("writes that nginx tried on node2 first (least_conn alternates)").isPositive();
    }

    @Test
    @Order(6)
    void hostBCrashedAndStartedAgainUnderWritesBothIndexesConverge() throws Exception {
        Stack.awaitNginxRoutesToBothNodes();
        BackgroundWriter writer = new BackgroundWriter(Search.uniqueWord(), 20);
        try (writer) {
            writer.awaitMore(10, Duration.ofSeconds(10));
            Stack.infra("ctl.sh", "crash-host", "B");
            try {
                writer.awaitMore(60, Duration.ofSeconds(30));
            } finally {
                Stack.infra("ctl.sh", "start-host", "B");
            }
            writer.awaitMore(10, Duration.ofSeconds(20));
        }
        // At most the one write in flight on node2 at the kill fails (its connection dies; nginx
        // answers it with an error and never resends a POST).
        assertThat(writer.refused() - writer.unanswered()).as("writes answered with an error; last refusal: "
                + writer.lastRefusal()).isLessThanOrEqualTo(1);
        // start-host brings node2 back through nginx's pool: two reloads (drained while it starts,
        // back in once ready). Each closes idle client keep-alive connections, and a write sent on
        // one at that instant gets no answer at all (ADR 0041): at most one per reload.
        assertThat(writer.unanswered()).as("writes whose connection an nginx reload closed; last refusal: "
                + writer.lastRefusal()).isLessThanOrEqualTo(2);
        long started = System.nanoTime();
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(90));
        System.out.printf("host B crashed: %d writes acknowledged, %d refused (%d of them unanswered); both indexes "
                        + "equal to the primary %.1f s after start-host%n", writer.acknowledgedCount(), writer.refused(),
                writer.unanswered(), (System.nanoTime() - started) / 1e9);
        Stack.awaitNginxRoutesToBothNodes();
    }

    private static String curlStatus(String host, String url) {
        Stack.Run r = onHost(host, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", url);
        return r.output().strip();
    }
}
