package dev.hanwiki.change;

import java.util.Map;
import java.util.Optional;

/**
 * The posts change stream as features other than the indexer may read it, for a Kafka consumer
 * group of their own (the shared L2 cache invalidator): where it lives, a client configuration
 * for a consumer GROUP (unlike the indexer, which assigns partitions itself), and the same
 * parsing the indexer uses. Implemented by {@code cdc}, which owns the topic's format.
 */
public interface ChangeStream {

    String postsTopic();

    /**
     * A consumer that shares {@code groupId} with the same consumer on the other nodes: each
     * event reaches one of them. Offsets are committed by the caller after it acted on a batch;
     * a new group starts at the end of the topic (older events need no action by then).
     */
    Map<String, Object> groupConsumerConfig(String groupId, String clientId);

    /** One record as the indexer would read it; empty when it cannot be read (the indexer dead-letters it). */
    Optional<PostsIndexed.Change> read(String key, String value);
}
