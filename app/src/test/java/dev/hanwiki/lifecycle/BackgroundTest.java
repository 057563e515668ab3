package dev.hanwiki.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one lifecycle (ADR 0092): threads only between start and stop, stop wakes and waits, failures keep schedules. */
class BackgroundTest {

    /** Counts what happens to it; its work is given per test. */
    private static final class Worker extends Background {
        final List<String> events = new CopyOnWriteArrayList<>();
        Runnable onStart = () -> { };

        Worker(Duration stopTimeout) {
            super("test-worker", Phases.SERVING, stopTimeout);
        }

        @Override
        protected void onStart() {
            events.add("start");
            onStart.run();
        }

        @Override
        protected void beforeStop() {
            events.add("beforeStop");
        }

        @Override
        protected void afterStop() {
            events.add("afterStop");
        }
    }

    private static boolean threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    @Test
    void noThreadBeforeStartAndNoneAfterStop() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        Worker worker = new Worker(Duration.ofSeconds(2));
        worker.onStart = () -> worker.submit(ran::countDown);

        assertThat(threadNamed("test-worker")).isFalse();
        worker.start();
        assertThat(ran.await(2, TimeUnit.SECONDS)).isTrue();
        assertThat(threadNamed("test-worker")).isTrue();
        worker.stop();

        assertThat(worker.isRunning()).isFalse();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (threadNamed("test-worker") && System.nanoTime() < deadline) {
            Thread.sleep(5); // the pool has terminated; its thread is on its way out
        }
        assertThat(threadNamed("test-worker")).isFalse();
        assertThat(worker.events).containsExactly("start", "beforeStop", "afterStop");
        assertThatThrownBy(() -> worker.submit(() -> { })).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void stopWakesALoopThatPausesAndWaitsForIt() throws InterruptedException {
        CountDownLatch looping = new CountDownLatch(1);
        AtomicInteger rounds = new AtomicInteger();
        Worker worker = new Worker(Duration.ofSeconds(10));
        worker.onStart = () -> worker.submit(() -> {
            looping.countDown();
            while (worker.pause(Duration.ofMinutes(1))) {
                rounds.incrementAndGet();
            }
            worker.events.add("loop ended");
        });
        worker.start();
        assertThat(looping.await(2, TimeUnit.SECONDS)).isTrue();

        long started = System.nanoTime();
        worker.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(worker.events).containsExactly("start", "beforeStop", "loop ended", "afterStop");
        assertThat(rounds).hasValue(0);
    }

    @Test
    void aPeriodicTaskThatThrowsKeepsItsSchedule() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch three = new CountDownLatch(3);
        Worker worker = new Worker(Duration.ofSeconds(2));
        worker.onStart = () -> worker.every(Duration.ZERO, Duration.ofMillis(10), () -> {
            runs.incrementAndGet();
            three.countDown();
            throw new IllegalStateException("boom");
        });
        worker.start();
        try {
            assertThat(three.await(2, TimeUnit.SECONDS)).isTrue();
        } finally {
            worker.stop();
        }
        int afterStop = runs.get();
        Thread.sleep(50);
        assertThat(runs).hasValue(afterStop); // cancelled with the stop
    }
}
