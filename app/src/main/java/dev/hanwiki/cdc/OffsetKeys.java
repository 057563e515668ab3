package dev.hanwiki.cdc;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kafka positions as Lucene commit user data: key {@code kafka.<topic>.<partition>}, value the
 * next offset to read. The same keys name offsets in the internal stats endpoint.
 */
final class OffsetKeys {

    private static final String PREFIX = "kafka.";

    private OffsetKeys() {
    }

    static String key(String topic, int partition) {
        return PREFIX + topic + "." + partition;
    }

    static Map<String, String> encode(String topic, Map<Integer, Long> nextOffsets) {
        Map<String, String> data = new TreeMap<>();
        nextOffsets.forEach((partition, offset) -> data.put(key(topic, partition), Long.toString(offset)));
        return data;
    }

    /** Reads this topic's offsets back; entries for other topics or unparseable values are ignored. */
    static Map<Integer, Long> decode(String topic, Map<String, String> userData) {
        String prefix = PREFIX + topic + ".";
        Map<Integer, Long> offsets = new HashMap<>();
        userData.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                try {
                    offsets.put(Integer.parseInt(key.substring(prefix.length())), Long.parseLong(value));
                } catch (NumberFormatException ignored) {
                    // Not ours: another writer's key that happens to share the prefix.
                }
            }
        });
        return offsets;
    }

    /** Offsets keyed for display, sorted for stable output. */
    static Map<String, Long> named(String topic, Map<Integer, Long> offsets) {
        Map<String, Long> named = new TreeMap<>();
        offsets.forEach((partition, offset) -> named.put(key(topic, partition), offset));
        return named;
    }
}
