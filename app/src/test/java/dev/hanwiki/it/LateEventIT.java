package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A late, older event must not resurrect a deleted post: the exact create event Debezium
 * wrote for a post is sent to the topic again after the post was deleted (what a connector
 * replaying from an old source offset does), and both nodes keep the post out of search.
 */
class LateEventIT {

    private static final String TOPIC = Stack.get("CDC_POSTS_TOPIC");

    @Test
    void aReplayedCreateAfterTheDeleteDoesNotResurrectThePost() throws Exception {
        String word = Search.uniqueWord();
        Users.User author = Users.shared();
        long id = author.createPost("늦은 사건 " + word, "삭제된 글은 되살아나지 않는다 " + word);
        awaitOnBothNodes(word, id, true);
        String create = recordedEvent(id, "\"op\":\"c\"");

        assertThat(author.delete(Stack.api() + "/posts/" + id).status()).isIn(200, 204);
        awaitOnBothNodes(word, id, false);

        try (var producer = new KafkaProducer<>(Stack.kafkaAsConnect(Map.of()),
                new StringSerializer(), new StringSerializer())) {
            try {
                producer.send(new ProducerRecord<>(TOPIC, "{\"id\":" + id + "}", create)).get();
                // A write after the late event: once it is visible, the late event was applied (or refused) too.
                long after = author.createPost("늦은 사건 다음 " + word, "뒤따르는 글 " + word);
                awaitOnBothNodes(word, after, true);

                for (int n = 1; n <= 2; n++) {
                    assertThat(Search.idsOn(n, word)).as("node%d search", n).containsExactly(after);
                    assertThat(Search.indexOn(n)).as("node%d index", n).doesNotContainKey(id);
                }
                Search.assertEveryNodeConverges(List.of(after), Duration.ofSeconds(10));
            } finally {
                // Only after the checks: a tombstone deletes the post again, so sent earlier it
                // would hide a wrongly resurrected post. It keeps compaction from leaving the
                // replayed create as the post's latest image for a node rebuilt later.
                producer.send(new ProducerRecord<>(TOPIC, "{\"id\":" + id + "}", null)).get();
            }
        }
    }

    private static void awaitOnBothNodes(String word, long id, boolean present) {
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(Duration.ofSeconds(10), "post " + id + (present ? " on" : " gone from") + " node" + node,
                    () -> Search.idsOn(node, word).contains(id) == present);
        }
    }

    /** The value of the event Debezium wrote for post {@code id} that contains {@code marker}. */
    private static String recordedEvent(long id, String marker) {
        try (var consumer = new KafkaConsumer<>(Stack.kafka(Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            consumer.seek(tp, Math.max(0, end - 2_000));
            String key = "{\"id\":" + id + "}";
            String found = null;
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    if (key.equals(r.key()) && r.value() != null && r.value().contains(marker)) {
                        found = r.value();
                    }
                }
            }
            assertThat(found).as("Debezium's event for post %d", id).isNotNull();
            return found;
        }
    }
}
