package dev.hanwiki.platform;

import com.netflix.concurrency.limits.Limiter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A short LIFO backlog in front of the partitioned limiter (ADR 0093, seventh amendment): a
 * request that finds no slot waits at most {@code timeoutMillis}, newest first, then is shed.
 * <p>
 * It replaces the library's {@code LifoBlockingLimiter}, which hands a released slot to the
 * newest waiter only, one waiter per release. Two slots were lost that way: when a release grows
 * the limit (a window that closes healthy: by one, or by half for a slow dependency), the other
 * new slots woke nobody; and when the newest waiter's partition was over its share, an older
 * waiter of another partition that fitted stayed asleep. Both waited out their timeout with free
 * slots and were shed. Here every release offers the free slots to the waiters, newest first,
 * each one the limiter admits.
 */
final class LifoBacklog<C> implements Limiter<C> {

    private static final class Waiter<C> {
        final C context;
        final CountDownLatch woken = new CountDownLatch(1);
        Limiter.Listener slot; // set under the lock, by whoever hands it the slot

        Waiter(C context) {
            this.context = context;
        }
    }

    private final Limiter<C> delegate;
    private final int size;
    private final long timeoutMillis;
    private final Object lock = new Object();
    /** Newest first; guarded by {@link #lock}. */
    private final Deque<Waiter<C>> waiters = new ArrayDeque<>();

    LifoBacklog(Limiter<C> delegate, int size, long timeoutMillis) {
        this.delegate = delegate;
        this.size = size;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public Optional<Listener> acquire(C context) {
        Optional<Listener> now = delegate.acquire(context);
        if (now.isPresent()) {
            return now.map(this::releasing);
        }
        Waiter<C> waiter = new Waiter<>(context);
        synchronized (lock) {
            if (waiters.size() >= size) {
                return Optional.empty();
            }
            // Once more under the lock: a slot released since the first try, before this waiter
            // was in the deque, was offered to nobody. From here on every release sees it.
            now = delegate.acquire(context);
            if (now.isPresent()) {
                return now.map(this::releasing);
            }
            waiters.addFirst(waiter);
        }
        boolean interrupted = false;
        try {
            waiter.woken.await(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        Listener slot;
        synchronized (lock) {
            slot = waiter.slot;
            if (slot == null) {
                waiters.remove(waiter);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return Optional.ofNullable(slot).map(this::releasing);
    }

    /** The slot's release, then the free slots offered to the waiters. */
    private Listener releasing(Listener slot) {
        return new Listener() {
            @Override
            public void onSuccess() {
                slot.onSuccess();
                offer();
            }

            @Override
            public void onIgnore() {
                slot.onIgnore();
                offer();
            }

            @Override
            public void onDropped() {
                slot.onDropped();
                offer();
            }
        };
    }

    /**
     * Hands free slots to the waiters, newest first. One the limiter refuses (its partition over
     * its share at the limit) is passed over for an older one that may fit. Each waiter is asked
     * once per release: the backlog holds at most {@code size}, and a refusal takes no slot.
     */
    private void offer() {
        synchronized (lock) {
            for (Iterator<Waiter<C>> it = waiters.iterator(); it.hasNext(); ) {
                Waiter<C> waiter = it.next();
                Optional<Listener> slot = delegate.acquire(waiter.context);
                if (slot.isPresent()) {
                    it.remove();
                    waiter.slot = slot.get();
                    waiter.woken.countDown();
                }
            }
        }
    }
}
