package dev.hanwiki.cache;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
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

    /** Values of at least this many bytes are deflated; smaller ones do not shrink enough to pay. */
    int DEFLATE_FROM = 512;

    /**
     * Wraps a codec so that large values (post bodies, search pages) are stored deflated: one
     * marker byte says which ({@code 0} plain, {@code 1} deflated). Korean text in JSON shrinks to
     * about a third, which is three times as many entries per megabyte of Redis and of L1.
     */
    static <V> ValueCodec<V> deflated(ValueCodec<V> inner) {
        return new ValueCodec<>() {
            @Override
            public byte[] encode(V value) {
                byte[] plain = inner.encode(value);
                if (plain.length < DEFLATE_FROM) {
                    byte[] out = new byte[plain.length + 1];
                    System.arraycopy(plain, 0, out, 1, plain.length);
                    return out;
                }
                Deflater deflater = new Deflater(Deflater.BEST_SPEED);
                try {
                    deflater.setInput(plain);
                    deflater.finish();
                    ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 2 + 16);
                    out.write(1);
                    byte[] buffer = new byte[8192];
                    while (!deflater.finished()) {
                        out.write(buffer, 0, deflater.deflate(buffer));
                    }
                    return out.toByteArray();
                } finally {
                    deflater.end();
                }
            }

            @Override
            public V decode(byte[] bytes) {
                if (bytes.length == 0 || bytes[0] == 0) {
                    return inner.decode(java.util.Arrays.copyOfRange(bytes, Math.min(1, bytes.length), bytes.length));
                }
                Inflater inflater = new Inflater();
                try {
                    inflater.setInput(bytes, 1, bytes.length - 1);
                    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length * 3);
                    byte[] buffer = new byte[8192];
                    while (!inflater.finished()) {
                        int n = inflater.inflate(buffer);
                        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                            throw new IllegalArgumentException("truncated cached value");
                        }
                        out.write(buffer, 0, n);
                    }
                    return inner.decode(out.toByteArray());
                } catch (DataFormatException e) {
                    throw new IllegalArgumentException("corrupt cached value", e);
                } finally {
                    inflater.end();
                }
            }
        };
    }
}
