package dev.hanwiki.post;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ViewBufferTest {

    @Test
    void viewsAddUpPerPostAndDrainInPostIdOrder() {
        ViewBuffer buffer = new ViewBuffer(10);
        buffer.record(7);
        buffer.record(3);
        buffer.record(7);

        assertThat(buffer.pending(7)).isEqualTo(2);
        Map<Long, Long> drained = buffer.drain();
        assertThat(drained).containsExactly(Map.entry(3L, 1L), Map.entry(7L, 2L));
        assertThat(buffer.size()).isZero();
        assertThat(buffer.pending(7)).isZero();
    }

    @Test
    void aFullBufferDropsViewsOfNewPostsButKeepsCountingKnownOnes() {
        ViewBuffer buffer = new ViewBuffer(2);
        buffer.record(1);
        buffer.record(2);

        assertThat(buffer.record(3)).isFalse();
        assertThat(buffer.record(1)).isTrue();
        assertThat(buffer.size()).isEqualTo(2);
        assertThat(buffer.dropped()).isEqualTo(1);
        assertThat(buffer.pending(1)).isEqualTo(2);
    }

    @Test
    void restoredCountsAreAddedToViewsRecordedMeanwhile() {
        ViewBuffer buffer = new ViewBuffer(10);
        buffer.record(5);
        Map<Long, Long> failed = buffer.drain();
        buffer.record(5);

        buffer.restore(failed);

        assertThat(buffer.pending(5)).isEqualTo(2);
    }

    @Test
    void noViewIsLostWhileDrainsRunConcurrently() throws Exception {
        ViewBuffer buffer = new ViewBuffer(1000);
        AtomicLong drained = new AtomicLong();
        int threads = 8;
        int perThread = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                for (int i = 0; i < perThread; i++) {
                    buffer.record(i % 50);
                }
                done.countDown();
            });
        }
        while (done.getCount() > 0) {
            buffer.drain().values().forEach(drained::addAndGet);
        }
        buffer.drain().values().forEach(drained::addAndGet);
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        assertThat(drained.get()).isEqualTo((long) threads * perThread);
    }
}
