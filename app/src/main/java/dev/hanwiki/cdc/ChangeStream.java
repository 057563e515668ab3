package dev.hanwiki.cdc;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.stereotype.Component;

/**
 * The posts change stream as other features may read it, for a consumer of their own (the
 * shared L2 cache invalidator): where it lives, a client configuration for a consumer GROUP
 * (unlike the indexer, which assigns partitions itself), and the same parsing the indexer uses.
 */
@Component
public class ChangeStream {

    private final CdcSettings settings;
    private final PostChangeParser parser;

    ChangeStream(CdcSettings settings, PostChangeParser parser) {
        this.settings = settings;
        this.parser = parser;
    }

    public String postsTopic() {
        return settings.postsTopic();
    }

    /**
     * A consumer that shares {@code groupId} with the same consumer on the other nodes: each
     * event reaches one of them. Offsets are committed by the caller after it acted on a batch;
     * a new group starts at the end of the topic (older events need no action by then).
     */
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

    /** One record as the indexer would read it; empty when it cannot be read (the indexer dead-letters it). */
    public Optional<PostsIndexed.Change> read(String key, String value) {
        try {
            return Optional.of(PostsIndexed.Change.of(parser.parse(key, value), true));
        } catch (MalformedChangeException e) {
            return Optional.empty();
        }
    }
}
