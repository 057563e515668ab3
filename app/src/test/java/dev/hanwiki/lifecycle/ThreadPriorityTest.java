package dev.hanwiki.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Background work at a lower priority (ADR 0093, fourth amendment): its own thread only, never the caller's. */
class ThreadPriorityTest {

    /** Records the nice value its own thread and its low-priority work see. */
    private static final class Niced extends Background {
        final CompletableFuture<int[]> seen = new CompletableFuture<>();

        Niced(int niceness) {
            super("niced-worker", Phases.SERVING, Duration.ofSeconds(5), niceness);
        }

        @Override
        protected void onStart() {
            submit(() -> {
                int own = ThreadNiceness.ofThisThread();
                int low = atLowPriority(ThreadNiceness::ofThisThread);
                int again = atLowPriority(ThreadNiceness::ofThisThread);
                seen.complete(new int[] {own, low, again, ThreadNiceness.ofThisThread()});
            });
        }
    }

    @Test
    void lowPriorityWorkRunsAtTheBeansNicenessWhileTheBeansOwnThreadKeepsItsPriority() throws Exception {
        assumeThat(ThreadNiceness.readable()).as("Linux only").isTrue();
        int before = ThreadNiceness.ofThisThread();
        assumeThat(before).as("the test JVM runs below the niceness under test").isLessThan(7);
        Niced lowered = new Niced(7);
        Niced normal = new Niced(0);
        lowered.start();
        normal.start();
        try {
            int[] l = lowered.seen.get(5, TimeUnit.SECONDS);
            assertThat(l[1]).as("the niced bean's low-priority work").isEqualTo(7);
            assertThat(l[2]).as("and its next piece of work, on the same helper").isEqualTo(7);
            assertThat(l[0]).as("the bean's own thread, before").isEqualTo(before);
            assertThat(l[3]).as("the bean's own thread, after (threads it makes inherit its priority)").isEqualTo(before);
            int[] n = normal.seen.get(5, TimeUnit.SECONDS);
            assertThat(n).as("a bean without niceness runs its work as it is").containsOnly(before);
            assertThat(ThreadNiceness.ofThisThread()).as("the thread that started them").isEqualTo(before);
        } finally {
            lowered.stop();
            normal.stop();
        }
    }

    @Test
    void lowPriorityWorkThrowsWhatItThrew() throws Exception {
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Background bean = new Background("throwing", Phases.SERVING, Duration.ofSeconds(5), 5) {
            @Override
            protected void onStart() {
                submit(() -> {
                    try {
                        atLowPriority(() -> {
                            throw new IllegalArgumentException("bad change");
                        });
                        thrown.complete(null);
                    } catch (RuntimeException e) {
                        thrown.complete(e);
                    }
                });
            }
        };
        bean.start();
        try {
            assertThat(thrown.get(5, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class).hasMessage("bad change");
        } finally {
            bean.stop();
        }
    }

    @Test
    void workHandedOverWhileTheBeanStopsRunsOnItsOwnThreadInsteadOfFailing() throws Exception {
        assumeThat(ThreadNiceness.readable()).as("Linux only").isTrue();
        int before = ThreadNiceness.ofThisThread();
        CountDownLatch stopping = new CountDownLatch(1);
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Background bean = new Background("stopping", Phases.SERVING, Duration.ofSeconds(5), 5) {
            @Override
            protected void onStart() {
                submit(() -> {
                    try {
                        stopping.await(5, TimeUnit.SECONDS); // stop() has begun: the last batch of a stopping indexer
                        outcome.complete(atLowPriority(ThreadNiceness::ofThisThread));
                    } catch (InterruptedException | RuntimeException e) {
                        outcome.complete(e);
                    }
                });
            }

            @Override
            protected void beforeStop() {
                stopping.countDown();
            }
        };
        bean.start();
        bean.stop();
        assertThat(outcome.get(5, TimeUnit.SECONDS)).as("run on the bean's own thread, at its priority").isEqualTo(before);
    }

    @Test
    void loweringIsPerThreadAndClampedToTheLowestPriority() throws Exception {
        assumeThat(ThreadNiceness.readable()).as("Linux only").isTrue();
        int before = ThreadNiceness.ofThisThread();
        CompletableFuture<Integer> seen = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            assertThat(ThreadPriority.lowerCurrentThread(40)).isTrue();
            seen.complete(ThreadNiceness.ofThisThread());
        });
        assertThat(seen.get(5, TimeUnit.SECONDS)).isEqualTo(ThreadPriority.LOWEST);
        assertThat(ThreadNiceness.ofThisThread()).isEqualTo(before);
        assertThat(ThreadPriority.lowerCurrentThread(0)).as("0: nothing to do").isTrue();
        assertThat(ThreadNiceness.ofThisThread()).isEqualTo(before);
    }

    /** Two pieces that finish only once both have started: they ran at the same time. Each reports its thread and nice value. */
    private static List<String> twoPiecesAtOnce(Executor workers) throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        List<FutureTask<String>> pieces = List.of(piece(started), piece(started));
        for (FutureTask<String> piece : pieces) {
            workers.execute(piece);
        }
        List<String> seen = new ArrayList<>();
        for (FutureTask<String> piece : pieces) {
            seen.add(piece.get(5, TimeUnit.SECONDS));
        }
        return seen;
    }

    private static FutureTask<String> piece(CountDownLatch started) {
        return new FutureTask<>(() -> {
            started.countDown();
            if (!started.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other piece never ran alongside");
            }
            Thread thread = Thread.currentThread();
            return thread.getName().replaceAll("\\d+$", "N") + (thread.isDaemon() ? " daemon" : "") + " nice " + ThreadNiceness.ofThisThread();
        });
    }

    @Test
    void workersRunPiecesInParallelAtTheirPriorityAndEndWithTheBean() throws Exception {
        assumeThat(ThreadNiceness.readable()).as("Linux only").isTrue();
        int before = ThreadNiceness.ofThisThread();
        assumeThat(before).as("the test JVM runs below the niceness under test").isLessThan(7);
        CompletableFuture<List<List<String>>> seen = new CompletableFuture<>();
        Background bean = new Background("pieces", Phases.SERVING, Duration.ofSeconds(5), 7, 2) {
            @Override
            protected void onStart() {
                submit(() -> {
                    try {
                        List<String> normal = twoPiecesAtOnce(workers(false));
                        List<String> low = atLowPriority(() -> {
                            try {
                                return twoPiecesAtOnce(workers(true));
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
                        seen.complete(List.of(normal, low));
                    } catch (Exception e) {
                        seen.completeExceptionally(e);
                    }
                });
            }
        };
        Background single = new Background("single", Phases.SERVING, Duration.ofSeconds(5), 7, 1) {
            @Override
            protected void onStart() {
            }
        };
        bean.start();
        single.start();
        try {
            List<List<String>> pieces = seen.get(10, TimeUnit.SECONDS);
            assertThat(pieces.get(0)).containsOnly("pieces-worker-N daemon nice " + before);
            assertThat(pieces.get(1)).containsOnly("pieces-low-priority-worker-N daemon nice 7");
            assertThat(single.workers(false)).as("one thread: the caller runs its pieces").isNull();
            assertThat(single.workers(true)).isNull();
        } finally {
            bean.stop();
            single.stop();
        }
        assertThat(bean.workers(false)).as("none once stopped").isNull();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (workerThreadsAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(workerThreadsAlive()).as("stop() ended the workers").isFalse();
    }

    private static boolean workerThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("pieces-") && t.isAlive());
    }
}
