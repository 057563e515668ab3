package dev.hanwiki.it;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps creating posts through nginx, about {@code perSecond} a second, while a drill breaks
 * something. Acknowledged ids are recorded; answers other than 201 are counted, not thrown.
 */
final class BackgroundWriter implements AutoCloseable {

    private final List<Long> acknowledged = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger refused = new AtomicInteger();
    /** Refusals with no HTTP answer at all (the connection failed), a subset of {@link #refused}. */
    private final AtomicInteger unanswered = new AtomicInteger();
    private volatile String lastRefusal = "none";
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    BackgroundWriter(String word, int perSecond) {
        long pauseMillis = 1000L / perSecond;
        thread = Thread.ofPlatform().name("it-writer").start(() -> {
            for (int i = 0; running.get(); i++) {
                try {
                    var r = Users.shared().post(Stack.api() + "/posts",
                            Map.of("title", "훈련 " + i + " " + word, "content", "장애 중에도 잃지 않는다 " + word + " " + i));
                    if (r.status() == 201) {
                        acknowledged.add(r.data().path("id").asLong());
                    } else {
                        refused.incrementAndGet();
                        lastRefusal = r.toString();
                    }
                } catch (RuntimeException e) {
                    refused.incrementAndGet();
                    unanswered.incrementAndGet();
                    lastRefusal = e.getCause() == null ? e.toString() : e + " (" + e.getCause() + ")";
                }
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        });
    }

    int acknowledgedCount() {
        return acknowledged.size();
    }

    List<Long> acknowledged() {
        synchronized (acknowledged) {
            return List.copyOf(acknowledged);
        }
    }

    int refused() {
        return refused.get();
    }

    /** Writes that got no HTTP answer (the connection failed); the rest of {@link #refused} got a status. */
    int unanswered() {
        return unanswered.get();
    }

    /** The last refusal, for assertion messages. */
    String lastRefusal() {
        return lastRefusal;
    }

    /** Waits until {@code more} further writes have been acknowledged. */
    void awaitMore(int more, java.time.Duration within) {
        int target = acknowledgedCount() + more;
        try {
            Eventually.within(within, target + " acknowledged writes", () -> acknowledgedCount() >= target);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " (" + refused.get() + " refused, last: " + lastRefusal + ")", e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(15_000);
    }
}
