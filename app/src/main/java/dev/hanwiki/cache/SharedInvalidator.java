package dev.hanwiki.cache;

import dev.hanwiki.change.ChangeStream;
import dev.hanwiki.change.PostsIndexed;
import dev.hanwiki.platform.NodeSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import dev.hanwiki.lifecycle.ConsumerLoop;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Evicts L2 once per change for the whole cluster: every node runs one of these consumers in
 * the SAME group ({@value #GROUP}), so Kafka hands each partition of the posts topic to one of
 * them and moves it to the survivor when a node leaves. It owns its KafkaConsumer and the one
 * thread that polls it ({@link ConsumerLoop}); offsets are committed after the batch's evictions were issued, so a
 * crash repeats evictions (harmless) rather than skipping them. Kafka being down is waited out:
 * meanwhile L2 entries are still checked against what each node's own indexer has seen, and
 * expire by TTL.
 */
@Component
class SharedInvalidator extends ConsumerLoop {

    static final String GROUP = "hanwiki-cache-l2";
    private static final Logger log = LoggerFactory.getLogger(SharedInvalidator.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration BACKOFF = Duration.ofSeconds(2);
    /**
     * Under a steady stream, one poll, round of DELs and offset commit per this long instead of
     * per arrival (see {@link ConsumerLoop#gather}). A stale L2 copy meanwhile is not served: every
     * read checks it against what the node's own indexer has seen (ADR 0032).
     */
    static final Duration BATCH_INTERVAL = Duration.ofMillis(100);

    private final ChangeStream stream;
    private final NodeSettings node;
    private final List<SharedEvictions> evictions;
    private final Counter batches;
    private final Counter changes;
    private final Counter retried;

    SharedInvalidator(ChangeStream stream, NodeSettings node, List<SharedEvictions> evictions, MeterRegistry meters) {
        super("cache-l2-invalidator", Duration.ofSeconds(5), BACKOFF);
        this.stream = stream;
        this.node = node;
        this.evictions = List.copyOf(evictions);
        this.batches = Counter.builder("hanwiki.cache.invalidator.batches")
                .description("batches of changes this node evicted from L2 for the cluster").register(meters);
        this.changes = Counter.builder("hanwiki.cache.invalidator.changes")
                .description("post changes this node evicted from L2 for the cluster").register(meters);
        this.retried = Counter.builder("hanwiki.cache.invalidator.retries")
                .description("batches read again because a shard could not be asked to evict").register(meters);
    }

    @Override
    protected KafkaConsumer<String, String> open() {
        KafkaConsumer<String, String> kafka = new KafkaConsumer<>(
                stream.groupConsumerConfig(GROUP, "hanwiki-cache-l2-" + node.id()),
                new StringDeserializer(), new StringDeserializer());
        kafka.subscribe(List.of(stream.postsTopic()));
        return kafka;
    }

    @Override
    protected void round(KafkaConsumer<String, String> kafka) {
        if (!gather(BATCH_INTERVAL)) {
            return; // stopping
        }
        ConsumerRecords<String, String> records = kafka.poll(POLL);
        if (records.isEmpty()) {
            return;
        }
        batchFound();
        if (evict(records)) {
            kafka.commitSync(Duration.ofSeconds(5));
        } else {
            // A shard could not be asked: read the batch again after a pause (DELs
            // repeat harmlessly) rather than commit past an eviction that did not happen.
            for (var tp : records.partitions()) {
                kafka.seek(tp, records.records(tp).getFirst().offset());
            }
            retried.increment();
            pause(BACKOFF);
        }
    }

    /** Kafka trouble: a new consumer (and group membership) after the back-off. */
    @Override
    protected boolean failed(KafkaConsumer<String, String> kafka, RuntimeException error) {
        log.warn("L2 invalidator: {}; reconnecting in {}", error.toString(), BACKOFF);
        return false;
    }

    /** True when every feature dropped its entries (or had none to drop). */
    private boolean evict(ConsumerRecords<String, String> records) {
        List<PostsIndexed.Change> batch = new ArrayList<>(records.count());
        for (ConsumerRecord<String, String> record : records) {
            // Counter-only changes (likes, view flushes) evict nothing: readers overlay the
            // counters the stream announced (ADR 0032), so a copy of the same version stays good.
            stream.read(record.key(), record.value())
                    .filter(change -> !change.countersOnly())
                    .ifPresent(batch::add);
        }
        if (batch.isEmpty()) {
            return true;
        }
        boolean done = true;
        for (SharedEvictions eviction : evictions) {
            try {
                done &= eviction.evictShared(batch);
            } catch (RuntimeException e) {
                log.warn("L2 eviction by {} failed: {}", eviction.getClass().getSimpleName(), e.toString());
                done = false;
            }
        }
        if (done) {
            batches.increment();
            changes.increment(batch.size());
        }
        return done;
    }
}
