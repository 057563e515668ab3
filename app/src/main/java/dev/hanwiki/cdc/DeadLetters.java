package dev.hanwiki.cdc;

import dev.hanwiki.lifecycle.Background;
import dev.hanwiki.lifecycle.Phases;
import dev.hanwiki.platform.NodeSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Where change events go that this node cannot read: the dead-letter topic
 * ({@code <posts-topic>.dlq}), with the reason and the event's origin in headers, so one
 * poison event is kept for an operator instead of stalling its partition. Each node reports
 * what IT could not apply, so a bad event appears once per node (header {@code node}).
 * Sending is asynchronous: the consumer never waits on it; a failed send is logged and counted.
 * The producer (and its network thread) exists while the bean runs: made in {@code start()},
 * closed after the change consumer has stopped ({@link Phases#SERVING}).
 */
@Component
class DeadLetters extends Background implements DeadLetterSink {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private final String topic;
    private final String node;
    private final Map<String, Object> config;
    private volatile KafkaProducer<String, String> producer;
    private final Counter sent;
    private final Counter lost;

    DeadLetters(CdcSettings settings, NodeSettings node, MeterRegistry meters) {
        super("dead-letters", Phases.SERVING, Duration.ofSeconds(1));
        this.topic = settings.postsTopic() + ".dlq";
        this.node = node.id();
        Map<String, Object> config = new HashMap<>(settings.securityConfig());
        config.putAll(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers(),
                ProducerConfig.CLIENT_ID_CONFIG, "hanwiki-dead-letters-" + node.id(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024,
                // Never block the consumer thread for long if Kafka is away.
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000));
        this.config = Map.copyOf(config);
        this.sent = Counter.builder("hanwiki.indexer.events.dead.lettered")
                .description("Unreadable change events sent to the dead-letter topic").register(meters);
        this.lost = Counter.builder("hanwiki.indexer.events.dead.letter.failures")
                .description("Unreadable change events that could not be sent to the dead-letter topic").register(meters);
    }

    @Override
    public void send(ConsumerRecord<String, String> poison, String reason) {
        ProducerRecord<String, String> letter = new ProducerRecord<>(topic, poison.key(), poison.value());
        letter.headers()
                .add("reason", bytes(reason))
                .add("node", bytes(node))
                .add("source", bytes(poison.topic() + "-" + poison.partition() + "@" + poison.offset()));
        KafkaProducer<String, String> current = producer;
        if (current == null) {
            lost.increment();
            log.error("Could not dead-letter {}-{}@{}: the node is not running", poison.topic(), poison.partition(), poison.offset());
            return;
        }
        try {
            current.send(letter, (metadata, error) -> {
                if (error == null) {
                    sent.increment();
                } else {
                    lost.increment();
                    log.error("Could not dead-letter {}-{}@{}: {}", poison.topic(), poison.partition(), poison.offset(), error.toString());
                }
            });
        } catch (RuntimeException e) {
            lost.increment();
            log.error("Could not dead-letter {}-{}@{}", poison.topic(), poison.partition(), poison.offset(), e);
        }
    }

    private static byte[] bytes(String s) {
        return (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void onStart() {
        producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    @Override
    protected void afterStop() {
        KafkaProducer<String, String> current = producer;
        producer = null;
        if (current != null) {
            current.close(Duration.ofSeconds(2));
        }
    }
}
