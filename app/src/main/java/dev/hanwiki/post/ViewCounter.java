package dev.hanwiki.post;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import dev.hanwiki.platform.RequestMethod;
import dev.hanwiki.platform.PrimaryDatabase;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Counts detail reads without writing on the read path: {@link #record} only touches the
 * in-memory {@link ViewBuffer}; one thread adds the buffered counts to {@code post_counters.view_count}
 * on the primary every {@code flush-interval}, in batches, in post id order (so two nodes
 * flushing at once never deadlock). A failed flush puts its counts back for the next one. On
 * shutdown the last counts are flushed after the web server has drained its requests
 * (this lifecycle stops in a later phase than the web server).
 */
@Component
class ViewCounter extends Background implements MeterBinder {

    private static final Logger log = LoggerFactory.getLogger(ViewCounter.class);
    /** Stops after the web server has drained: the last views are flushed. */
    static final int PHASE = Phases.SERVING;

    /**
     * Adds views to the post's narrow counter row (ADR 0080), creating it if a post has none; a
     * deleted or absent post takes none. Never touches the page's row. (Columns qualified: posts
     * has a {@code version} too, which would make the update clause ambiguous.)
     */
    static final String FLUSH = """
            INSERT INTO post_counters (post_id, view_count, like_count, version)
            SELECT p.id, ?, 0, 1 FROM posts p WHERE p.id = ? AND p.deleted_at IS NULL
            ON DUPLICATE KEY UPDATE post_counters.view_count = post_counters.view_count + ?,
                                    post_counters.version = post_counters.version + 1
            """;

    private final ViewBuffer buffer;
    private final JdbcTemplate primary;
    private final TransactionTemplate transaction;
    private final ViewSettings settings;
    private final AtomicLong flushed = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    ViewCounter(@PrimaryDatabase DataSource primary, PlatformTransactionManager transactionManager, ViewSettings settings) {
        super("view-flusher", PHASE, Duration.ofSeconds(10));
        this.buffer = new ViewBuffer(settings.maxPendingPosts());
        this.primary = new JdbcTemplate(primary);
        this.transaction = new TransactionTemplate(transactionManager);
        this.settings = settings;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("hanwiki.views.flushed", flushed, AtomicLong::get)
                .description("Views added to the database").register(registry);
        FunctionCounter.builder("hanwiki.views.flush.failures", failures, AtomicLong::get)
                .description("Flushes that failed; their views were kept for the next one").register(registry);
        FunctionCounter.builder("hanwiki.views.dropped", buffer, ViewBuffer::dropped)
                .description("Views not counted because the buffer was full").register(registry);
        Gauge.builder("hanwiki.views.pending.posts", buffer, ViewBuffer::size)
                .description("Posts with views waiting to be flushed").register(registry);
    }

    /** A HEAD request reads the headers only: nobody viewed the page, so it is not counted (ADR 0088). */
    void record(long postId) {
        if (!RequestMethod.isHead()) {
            buffer.record(postId);
        }
    }

    /** Views of this post counted here but not yet flushed, so a reader sees its own view at once. */
    long unflushed(long postId) {
        return buffer.pending(postId);
    }

    /** @return the number of views written */
    long flush() {
        Map<Long, Long> counts = buffer.drain();
        if (counts.isEmpty()) {
            return 0;
        }
        List<Map.Entry<Long, Long>> entries = new ArrayList<>(counts.entrySet());
        long written = 0;
        for (int from = 0; from < entries.size(); from += settings.batchSize()) {
            List<Map.Entry<Long, Long>> batch = entries.subList(from, Math.min(entries.size(), from + settings.batchSize()));
            try {
                transaction.executeWithoutResult(status -> primary.batchUpdate(
                        FLUSH,
                        batch, batch.size(), (ps, entry) -> {
                            ps.setLong(1, entry.getValue());
                            ps.setLong(2, entry.getKey());
                            ps.setLong(3, entry.getValue());
                        }));
                long views = batch.stream().mapToLong(Map.Entry::getValue).sum();
                written += views;
                flushed.addAndGet(views);
            } catch (DataAccessException | TransactionException e) {
                Map<Long, Long> unwritten = new HashMap<>();
                entries.subList(from, entries.size()).forEach(entry -> unwritten.put(entry.getKey(), entry.getValue()));
                buffer.restore(unwritten);
                failures.incrementAndGet();
                log.warn("Could not flush views of {} posts; keeping them for the next flush: {}", unwritten.size(), e.getMessage());
                break;
            }
        }
        return written;
    }

    @Override
    protected void onStart() {
        every(settings.flushInterval(), settings.flushInterval(), this::flush);
    }

    /** After a running flush ended: flushes what is left. */
    @Override
    protected void afterStop() {
        long written = flush();
        int left = buffer.size();
        if (left > 0) {
            log.warn("Shutting down with views of {} posts unflushed (the primary did not take them)", left);
        } else {
            log.info("Flushed the last {} views before shutdown", written);
        }
    }
}
