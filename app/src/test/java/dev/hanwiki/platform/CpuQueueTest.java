package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node's CPU run queue from per-thread schedstat files: a fake /proc/self/task. */
class CpuQueueTest {

    @TempDir
    Path tasks;

    private void thread(String tid, long runNanos, long waitNanos) throws IOException {
        Files.createDirectories(tasks.resolve(tid));
        Files.writeString(tasks.resolve(tid).resolve("schedstat"), runNanos + " " + waitNanos + " 7\n");
    }

    @Test
    void averagesTheThreadsRunQueueTimeOverThePeriodAcrossThreadsComingAndGoing() throws IOException {
        AtomicLong now = new AtomicLong(5_000_000_000L);
        CpuQueue queue = new CpuQueue(tasks, now::get);
        thread("101", 9_000_000, 1_000_000_000);
        thread("102", 9_000_000, 2_000_000_000);
        queue.sample();
        assertThat(queue.waiting()).as("one sample is no period").isNaN();

        now.addAndGet(1_000_000_000L);
        thread("101", 9_000_000, 1_500_000_000); // waited 0.5 s of the second
        thread("102", 9_000_000, 2_250_000_000L); // waited 0.25 s
        queue.sample();
        assertThat(queue.waiting()).isCloseTo(0.75, within(1e-9));

        now.addAndGet(500_000_000L);
        Files.delete(tasks.resolve("101").resolve("schedstat"));
        Files.delete(tasks.resolve("101"));
        thread("102", 9_000_000, 2_750_000_000L); // 0.5 s
        thread("103", 1_000, 1_000_000_000); // born within the period: all of its 1 s counts
        queue.sample();
        assertThat(queue.waiting()).as("a busy queue: three threads waiting on average").isCloseTo(3.0, within(1e-9));

        now.addAndGet(500_000_000L);
        queue.sample();
        assertThat(queue.waiting()).as("nobody waited").isZero();
    }

    /** A stat line as Linux writes it: the name may hold spaces and parentheses; field 19 is the nice value. */
    private void stat(String tid, String name, int nice) throws IOException {
        Files.writeString(tasks.resolve(tid).resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 4194368 60 0 0 0 3 1 0 0 "
                + (20 + nice) + " " + nice + " 31 0 1418 0 0 18446744073709551615\n");
    }

    @Test
    void threadsLoweredToBackgroundPriorityAreLeftOut() throws IOException {
        AtomicLong now = new AtomicLong(0);
        CpuQueue queue = new CpuQueue(tasks, now::get);
        thread("201", 1, 0);
        stat("201", "http-nio-8080-exec-1", 0);
        thread("202", 1, 0);
        stat("202", "post-change) consumer", 10);
        thread("203", 1, 0); // no stat file: normal priority
        queue.sample();
        now.addAndGet(1_000_000_000L);
        thread("201", 1, 500_000_000);
        thread("202", 1, 900_000_000); // the niced indexer waited most of the second: by design
        thread("203", 1, 250_000_000);
        queue.sample();
        assertThat(queue.waiting()).as("the niced thread's wait is not the requests' wait").isCloseTo(0.75, within(1e-9));
    }

    @Test
    void withoutTheFilesTheQueueIsUnknownNotZero() {
        CpuQueue queue = new CpuQueue(tasks.resolve("absent"), System::nanoTime);
        queue.sample();
        queue.sample();
        assertThat(queue.waiting()).isNaN();
    }
}
