package dev.hanwiki.cache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * A consistent-hash ring with virtual nodes. Each node is placed at {@code vnodes} points,
 * hashed from its stable NAME (never its address, so moving a shard to another port does not
 * move its keys); a key belongs to the first point at or after its own hash, wrapping around.
 *
 * <p>Why a ring and not jump consistent hash: see docs/adr/0030-hash-ring-for-redis-shards.md.
 * In short, a ring lets any named shard leave or join (jump hash only grows or shrinks at the
 * end of a numbered list) and keeps a shard that is merely down in place, so its keys miss
 * instead of being re-hashed onto the survivors.
 *
 * <p>The hash is the first 64 bits of MurmurHash3 x64-128 of the UTF-8 bytes: well mixed,
 * fast, and stable across JVMs and languages. Lookups are a binary search over a sorted
 * {@code long[]}: no boxing, no tree walk. Instances are immutable.
 */
public final class HashRing<N> {

    private final long[] points;
    private final Object[] owners;
    private final List<N> nodes;

    /**
     * @param nodes  the nodes, each with a distinct, stable name
     * @param name   how to name a node (e.g. "shard-1")
     * @param vnodes points per node; a few hundred or more keeps shares within a few percent
     */
    public HashRing(List<N> nodes, Function<N, String> name, int vnodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a ring needs at least one node");
        }
        if (vnodes < 1) {
            throw new IllegalArgumentException("vnodes must be positive, was " + vnodes);
        }
        this.nodes = List.copyOf(nodes);
        record Point(long hash, int node) {
        }
        List<Point> all = new ArrayList<>(nodes.size() * vnodes);
        for (int n = 0; n < nodes.size(); n++) {
            String base = Objects.requireNonNull(name.apply(nodes.get(n)), "node name");
            for (int v = 0; v < vnodes; v++) {
                all.add(new Point(hash(base + "#" + v), n));
            }
        }
        // Ties (astronomically rare) are broken by node index so every JVM builds the same ring.
        all.sort((a, b) -> a.hash != b.hash ? Long.compare(a.hash, b.hash) : Integer.compare(a.node, b.node));
        this.points = new long[all.size()];
        this.owners = new Object[all.size()];
        for (int i = 0; i < all.size(); i++) {
            points[i] = all.get(i).hash;
            owners[i] = this.nodes.get(all.get(i).node);
        }
    }

    /** The node that owns {@code key}. */
    @SuppressWarnings("unchecked")
    public N nodeFor(String key) {
        int i = Arrays.binarySearch(points, hash(key));
        if (i < 0) {
            i = -i - 1;
        }
        return (N) owners[i == points.length ? 0 : i];
    }

    public List<N> nodes() {
        return nodes;
    }

    static long hash(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return MurmurHash3.hash128x64(bytes, 0, bytes.length, 0)[0];
    }
}
