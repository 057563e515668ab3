package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** An event no node can read goes to the dead-letter topic and does not stall the stream. */
class PoisonEventIT {

    private static final String TOPIC = Stack.get("CDC_POSTS_TOPIC");

    @Test
    void aPoisonEventIsDeadLetteredByEachNodeAndLaterWritesStillArrive() throws Exception {
        String key = "{\"id\":-" + (System.nanoTime() % 1_000_000) + "}";
        long poisonOffset;
        long after;
        try (var producer = new KafkaProducer<>(Stack.kafkaAsConnect(Map.of()),
                new StringSerializer(), new StringSerializer())) {
            poisonOffset = producer.send(new ProducerRecord<>(TOPIC, key, "{this is not a change event")).get().offset();
            try {
                String word = Search.uniqueWord();
                long id = Search.create("독 이후 " + word, "뒤따르는 글 " + word);
                after = id;
                for (int n = 1; n <= 2; n++) {
                    int node = n;
                    Eventually.within(Duration.ofSeconds(5), "post after the poison event on node" + node,
                            () -> Search.idsOn(node, word).contains(id));
                }
                String source = TOPIC + "-0@" + poisonOffset;
                Set<String> nodes = new HashSet<>();
                Eventually.within(Duration.ofSeconds(10), "a dead letter from each node", () -> {
                    nodes.clear();
                    nodes.addAll(deadLetterNodesFor(source));
                    return nodes.size() == 2;
                });
                assertThat(nodes).containsExactlyInAnyOrder("node1", "node2");
            } finally {
                // A tombstone lets compaction drop the poison key again.
                producer.send(new ProducerRecord<>(TOPIC, key, null)).get();
            }
        }
        for (int n = 1; n <= 2; n++) {
            String metrics = Http.get(Stack.management(n) + "/actuator/prometheus").body();
            assertThat(metrics).containsPattern("hanwiki_indexer_events_dead_lettered_total\\{[^}]*} [1-9]");
        }
        // Skipping the poison lost nothing: both indexes equal the primary (the checker's comparison).
        Search.assertEveryNodeConverges(List.of(after), Duration.ofSeconds(10));
    }

    private static List<String> deadLetterNodesFor(String source) {
        try (var consumer = new KafkaConsumer<>(Stack.kafkaAsOperator(Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(TOPIC + ".dlq", 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            List<String> nodes = new java.util.ArrayList<>();
            while (consumer.position(tp) < end) {
                for (var r : consumer.poll(Duration.ofMillis(500))) {
                    if (source.equals(header(r, "source"))) {
                        assertThat(header(r, "reason")).isNotBlank();
                        nodes.add(header(r, "node"));
                    }
                }
            }
            return nodes;
        }
    }

    private static String header(org.apache.kafka.clients.consumer.ConsumerRecord<String, String> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
