package dev.hanwiki.cdc;

import dev.hanwiki.change.ChangeStream;
import dev.hanwiki.change.PostsIndexed;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.stereotype.Component;

/** The posts change stream on Kafka, read with the indexer's own settings and parser. */
@Component
class KafkaChangeStream implements ChangeStream {

    private final CdcSettings settings;
    private final PostChangeParser parser;

    KafkaChangeStream(CdcSettings settings, PostChangeParser parser) {
        this.settings = settings;
        this.parser = parser;
    }

    @Override
    public String postsTopic() {
        return settings.postsTopic();
    }

    @Override
    public Map<String, Object> groupConsumerConfig(String groupId, String clientId) {
        Map<String, Object> config = settings.consumerConfig(clientId);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        // A node that dies hands its partitions over within seconds, not the default 45 s.
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 2_000);
        return config;
    }

    @Override
    public Optional<PostsIndexed.Change> read(String key, String value) {
        try {
            return Optional.of(parser.parse(key, value).announced(true));
        } catch (MalformedChangeException e) {
            return Optional.empty();
        }
    }
}
