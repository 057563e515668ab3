package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.netflix.concurrency.limits.limit.AIMDLimit;
import dev.hanwiki.platform.OverloadLimiter.Partition;
import dev.hanwiki.platform.OverloadLimiter.Permit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/** The limiter's wiring of the library: limit, partitions, backlog, adaptation and metrics. */
class OverloadLimiterTest {

    /** The node's threads queued for a core (100 of them): every slow window is overload. */
    static final DoubleSupplier CPU_QUEUED = () -> 100.0;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    static OverloadSettings settings(int min, int initial, int max, double read, double write, double internal,
            int backlog, Duration backlogTimeout) {
        return new OverloadSettings(true, min, initial, max, Duration.ofMillis(50), 0.5, 0.9, Duration.ofMillis(100),
                read, write, internal, backlog, backlogTimeout, Duration.ofSeconds(1), 3);
    }

    private static List<Permit> take(OverloadLimiter limiter, Partition p, int n) {
        List<Permit> permits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            permits.add(limiter.acquire(p).orElseThrow(() -> new AssertionError("shed below the limit")));
        }
        return permits;
    }

    private double requests(Partition p, String outcome) {
        return meters.get("hanwiki.overload.requests").tag("partition", p.tag).tag("outcome", outcome).counter().count();
    }

    @Test
    void aRequestPastTheLimitIsShedAtOnceWithoutABacklog() {
        OverloadLimiter limiter = new OverloadLimiter(settings(4, 4, 4, 1.0, 0, 0, 0, Duration.ZERO), meters);
        List<Permit> held = take(limiter, Partition.READ, 4);
        long start = System.nanoTime();
        assertThat(limiter.acquire(Partition.READ)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(50));
        assertThat(requests(Partition.READ, "admitted")).isEqualTo(4);
        assertThat(requests(Partition.READ, "shed")).isEqualTo(1);
        assertThat(meters.get("hanwiki.overload.inflight").tag("partition", "read").gauge().value()).isEqualTo(4);
        held.forEach(Permit::success);
        assertThat(meters.get("hanwiki.overload.inflight").tag("partition", "read").gauge().value()).isZero();
        assertThat(limiter.acquire(Partition.READ)).isPresent();
    }

    @Test
    void writesThatFillTheLimitCannotCrowdOutReads() {
        OverloadLimiter limiter = new OverloadLimiter(settings(10, 10, 10, 0.7, 0.3, 0, 0, Duration.ZERO), meters);
        // Under the limit anyone may borrow: ten writes get in.
        take(limiter, Partition.WRITE, 10);
        assertThat(limiter.inflight()).isEqualTo(10);
        // At the limit, writes are held to their share (3, long exceeded) and reads keep theirs (7).
        assertThat(limiter.acquire(Partition.WRITE)).isEmpty();
        take(limiter, Partition.READ, 7);
        assertThat(limiter.acquire(Partition.READ)).isEmpty();
        assertThat(requests(Partition.WRITE, "shed")).isEqualTo(1);
        assertThat(requests(Partition.READ, "admitted")).isEqualTo(7);
    }

    @Test
    void aWaitingRequestGetsTheNextFreeSlotAndOneThatWaitsTooLongIsShed() throws Exception {
        OverloadLimiter limiter = new OverloadLimiter(settings(1, 1, 1, 1.0, 0, 0, 5, Duration.ofMillis(300)), meters);
        Permit first = limiter.acquire(Partition.READ).orElseThrow();
        CompletableFuture<Optional<Permit>> waiter = CompletableFuture.supplyAsync(() -> limiter.acquire(Partition.READ));
        Thread.sleep(50);
        assertThat(waiter).isNotDone();
        assertThat(meters.get("hanwiki.overload.waiting").gauge().value()).isEqualTo(1);
        first.success();
        Permit second = waiter.get(1, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError("not admitted from the backlog"));

        long start = System.nanoTime();
        assertThat(limiter.acquire(Partition.READ)).as("no slot frees within the backlog timeout").isEmpty();
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(waitedMs).isBetween(250L, 900L);
        second.success();
    }

    private static CompletableFuture<Optional<Permit>> waiter(OverloadLimiter limiter, Partition p) {
        return CompletableFuture.supplyAsync(() -> limiter.acquire(p), runnable -> Thread.ofPlatform().start(runnable));
    }

    private static void awaitWaiting(SimpleMeterRegistry meters, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (meters.get("hanwiki.overload.waiting").gauge().value() < n) {
            assertThat(System.nanoTime()).as(n + " requests waiting in the backlog").isLessThan(deadline);
            Thread.sleep(5);
        }
        Thread.sleep(50); // past the first try: each is in the backlog now
    }

    /**
     * A release whose sample closes a healthy window grows the limit: every waiter that now fits
     * gets a slot at once. The library's backlog woke one waiter per release; the other waited out
     * its timeout beside a free slot and was shed (suspected, not shown, in chaos shards-kafka of
     * session 18: two requests shed in the same millisecond after 100 ms in the backlog).
     */
    @Test
    void aReleaseThatGrowsTheLimitAdmitsEveryWaiterThatNowFits() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        OverloadLimiter limiter = new OverloadLimiter(settings(2, 4, 20, 1.0, 0, 0, 5, Duration.ofSeconds(2)), meters,
                now::get, () -> 0.0);
        List<Permit> held = take(limiter, Partition.READ, 3);
        for (int i = 0; i < 10; i++) { // nine samples in the window, with four in flight
            limiter.acquire(Partition.READ).orElseThrow().success();
        }
        Permit fourth = limiter.acquire(Partition.READ).orElseThrow();
        assertThat(limiter.inflight()).isEqualTo(limiter.limit()).isEqualTo(4);
        CompletableFuture<Optional<Permit>> first = waiter(limiter, Partition.READ);
        CompletableFuture<Optional<Permit>> second = waiter(limiter, Partition.READ);
        awaitWaiting(meters, 2);

        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(120)); // past the window: the next sample closes it
        held.getFirst().success();
        assertThat(limiter.limit()).as("a healthy window that used the whole limit").isGreaterThanOrEqualTo(5);

        Permit a = first.get(1, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError("shed"));
        Permit b = second.get(1, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError("shed"));
        assertThat(requests(Partition.READ, "shed")).isZero();
        for (Permit p : List.of(a, b, fourth, held.get(1), held.get(2))) {
            p.success();
        }
    }

    /**
     * A release that leaves the node at its (shrunk) limit: the newest waiter, a write over its
     * share, cannot go; an older read within the reads' share can, and gets the slot. The
     * library's backlog asked the newest waiter only, and the read was shed at its timeout.
     */
    @Test
    void aWaiterThatFitsIsNotHeldBehindANewerOneThatDoesNot() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        OverloadLimiter limiter = new OverloadLimiter(settings(2, 10, 10, 0.7, 0.3, 0, 5, Duration.ofSeconds(2)),
                meters, now::get, CPU_QUEUED);
        List<Permit> writes = take(limiter, Partition.WRITE, 3);
        List<Permit> reads = take(limiter, Partition.READ, 6);
        for (int i = 0; i < 10; i++) { // nine samples in the window, with ten in flight
            limiter.acquire(Partition.READ).orElseThrow().success();
        }
        Permit tenth = limiter.acquire(Partition.READ).orElseThrow();
        CompletableFuture<Optional<Permit>> read = waiter(limiter, Partition.READ);
        awaitWaiting(meters, 1);
        CompletableFuture<Optional<Permit>> write = waiter(limiter, Partition.WRITE);
        awaitWaiting(meters, 2);

        // A slow window with the CPU queued: the release shrinks the limit to 9, nine in flight.
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(120));
        tenth.success();
        assertThat(limiter.limit()).isEqualTo(9);

        Permit admitted = read.get(1, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError("read shed"));
        assertThat(write).as("writes hold three of nine, over their share").isNotDone();
        admitted.success();
        writes.forEach(Permit::success);
        reads.forEach(Permit::success);
        assertThat(write.get(1, TimeUnit.SECONDS)).as("a write once the writes are under their share").isPresent();
    }

    /**
     * One window of samples on a fake clock: {@code concurrent} requests at once, then ten one
     * after another (so the window has enough samples whatever the limit), each taking
     * {@code rttMs}; the last of the concurrent ones ends {@code dropped} if asked (the first
     * one to end closes the window before it, which then judges it alone). Then past the window.
     */
    private static void window(OverloadLimiter limiter, AtomicLong now, int concurrent, long rttMs, boolean drop) {
        List<Permit> permits = take(limiter, Partition.READ, concurrent);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(rttMs));
        for (int i = 0; i < permits.size(); i++) {
            if (drop && i == permits.size() - 1) {
                permits.get(i).dropped();
            } else {
                permits.get(i).success();
            }
        }
        for (int i = 0; i < 10; i++) {
            Permit p = limiter.acquire(Partition.READ).orElseThrow();
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(rttMs));
            p.success();
        }
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(120));
    }

    @Test
    void theLimitShrinksWhileTheWindowP95IsOverTheTargetAndGrowsBackUnderIt() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        OverloadLimiter limiter = new OverloadLimiter(settings(2, 10, 20, 1.0, 0, 0, 0, Duration.ZERO), meters,
                now::get, CPU_QUEUED);
        for (int i = 0; i < 6; i++) {
            window(limiter, now, limiter.limit(), 80, false); // target 50 ms
        }
        int shrunk = limiter.limit();
        assertThat(shrunk).isLessThan(10).isGreaterThanOrEqualTo(2);
        assertThat(meters.get("hanwiki.overload.limit").gauge().value()).isEqualTo(shrunk);
        // Fast requests that keep the limit busy: it grows by one per window, up to the maximum.
        for (int i = 0; i < 30; i++) {
            window(limiter, now, limiter.limit(), 5, false);
        }
        assertThat(limiter.limit()).isEqualTo(20);
    }

    /**
     * A limit shrunk by a burst grows back under light traffic too: at 100 req/s a node has a
     * couple of requests in flight, and a limit left at its minimum was filled by the next stall
     * (writes waiting on a stuck primary, chaos disk-full).
     */
    @Test
    void aShrunkLimitGrowsBackToTheMaximumUnderLightHealthyTraffic() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        OverloadLimiter limiter = new OverloadLimiter(settings(2, 20, 20, 1.0, 0, 0, 0, Duration.ZERO), meters,
                now::get, CPU_QUEUED);
        for (int i = 0; i < 10; i++) {
            window(limiter, now, limiter.limit(), 80, false); // a burst over the 50 ms target
        }
        assertThat(limiter.limit()).isLessThan(10);
        for (int i = 0; i < 30; i++) {
            window(limiter, now, 1, 5, false); // one request at a time, fast
        }
        assertThat(limiter.limit()).isEqualTo(20);
    }

    /**
     * Slow windows whose requests do not wait for a core are a slow dependency's (chaos
     * latency-100ms: 100 ms on every link, writes taking a second; the limit sat at its minimum
     * and writes were shed): they count as healthy and the limit grows, also on a busy host
     * whose run queue holds a few threads while most requests sleep on sockets. The same windows
     * with the requests queued for a core (threads waiting per request in flight at least the
     * share, 0.5 here) shrink it, as does a drop whatever the CPU.
     */
    @Test
    void slowWindowsShrinkTheLimitOnlyWhenTheNodesCpuIsTheQueue() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        AtomicReference<Double> cpuWaiting = new AtomicReference<>(0.2);
        OverloadLimiter limiter = new OverloadLimiter(settings(2, 12, 20, 1.0, 0, 0, 0, Duration.ZERO), meters,
                now::get, cpuWaiting::get);
        for (int i = 0; i < 20; i++) {
            window(limiter, now, limiter.limit(), 300, false);
        }
        assertThat(limiter.limit()).as("300 ms windows, CPU idle: the links are slow, not the node").isEqualTo(20);
        assertThat(meters.get("hanwiki.overload.slow.dependency.windows").counter().count()).isGreaterThanOrEqualTo(8);

        cpuWaiting.set(3.0);
        for (int i = 0; i < 5; i++) {
            window(limiter, now, limiter.limit(), 300, false);
        }
        assertThat(limiter.limit()).as("3 threads waiting among 20 requests in flight: still the links").isEqualTo(20);

        window(limiter, now, 12, 300, true);
        window(limiter, now, 12, 300, false);
        assertThat(limiter.limit()).as("a pool that timed out shrinks it, CPU or not").isLessThan(20);

        cpuWaiting.set(20.0);
        for (int i = 0; i < 8; i++) {
            window(limiter, now, limiter.limit(), 300, false);
        }
        assertThat(limiter.limit()).as("slow windows with the requests queued for a core: overload").isLessThan(12);
    }

    /**
     * When a link turns slow, the requests suddenly need several times the slots (chaos
     * latency-100ms: a limit at its minimum of 8, growing by one per window, shed 18 requests in
     * the first 1.2 s of the fault). A slow dependency's window that used the whole limit grows it
     * by half; one that did not, and a fast full window, still by one.
     */
    @Test
    void aSlowDependencyThatFillsTheLimitGrowsItByHalfPerWindow() {
        AtomicReference<Double> cpuWaiting = new AtomicReference<>(0.2);
        AIMDLimit aimd = AIMDLimit.newBuilder().minLimit(8).initialLimit(8).maxLimit(32).backoffRatio(0.9)
                .timeout(50, TimeUnit.MILLISECONDS).build();
        OverloadLimiter.NodeAimd limit = new OverloadLimiter.NodeAimd(aimd, TimeUnit.MILLISECONDS.toNanos(50),
                cpuWaiting::get, 0.5, meters.counter("slow"));
        long slow = TimeUnit.MILLISECONDS.toNanos(300);
        long fast = TimeUnit.MILLISECONDS.toNanos(5);

        limit.onSample(0, slow, 4, false);
        assertThat(limit.getLimit()).as("a slow window that used half the limit: one more").isEqualTo(9);
        limit.onSample(0, fast, 9, false);
        assertThat(limit.getLimit()).as("a fast full window: one more").isEqualTo(10);

        List<Integer> limits = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            limit.onSample(0, slow, limit.getLimit(), false);
            limits.add(limit.getLimit());
        }
        assertThat(limits).as("slow dependency windows that filled the limit").containsExactly(15, 22, 32, 32);

        cpuWaiting.set(20.0);
        limit.onSample(0, slow, 32, false);
        assertThat(limit.getLimit()).as("the same window with the requests queued for a core: overload").isEqualTo(28);
    }

    @Test
    void aDroppedRequestShrinksTheLimitAndAnIgnoredOneIsNotSampled() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        OverloadLimiter limiter = new OverloadLimiter(settings(2, 10, 20, 1.0, 0, 0, 0, Duration.ZERO), meters,
                now::get, CPU_QUEUED);
        for (int round = 0; round < 5; round++) {
            List<Permit> permits = take(limiter, Partition.READ, 10);
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
            permits.forEach(Permit::ignore);
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(150));
        }
        assertThat(limiter.limit()).as("slow but ignored requests are no sample").isEqualTo(10);
        for (int i = 0; i < 4; i++) {
            window(limiter, now, 5, 1, true);
        }
        assertThat(limiter.limit()).as("a window with a 503 backs off, however fast").isLessThan(10);
    }
}
