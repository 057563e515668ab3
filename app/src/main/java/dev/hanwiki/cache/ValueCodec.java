package dev.hanwiki.cache;

import tools.jackson.databind.json.JsonMapper;

/**
 * How a cached value becomes bytes for L2 and back. The serialized length is also the value's
 * weight in L1. A change of shape needs a new {@link TieredCache#FORMAT} so a deploy never
 * reads an old shape.
 */
public interface ValueCodec<V> {

    byte[] encode(V value);

    V decode(byte[] bytes);

    /** JSON through Jackson: compact enough for our records and readable in redis-cli. */
    static <V> ValueCodec<V> json(JsonMapper mapper, Class<V> type) {
        return new ValueCodec<>() {
            @Override
            public byte[] encode(V value) {
                return mapper.writeValueAsBytes(value);
            }

            @Override
            public V decode(byte[] bytes) {
                return mapper.readValue(bytes, type);
            }
        };
    }
}
