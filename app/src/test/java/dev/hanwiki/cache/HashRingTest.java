package dev.hanwiki.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class HashRingTest {

    private static final int KEYS = 100_000;
    private static final List<String> THREE = List.of("shard-1", "shard-2", "shard-3");

    private static Map<String, Integer> counts(HashRing<String> ring) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < KEYS; i++) {
            counts.merge(ring.nodeFor("hw:v1:post:" + i), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void busiestShardHoldsAtMostTenPercentMoreKeysThanTheLeastBusy() {
        Map<String, Integer> counts = counts(new HashRing<>(THREE, Function.identity(), CacheSettings.DEFAULT_VNODES));
        int max = counts.values().stream().max(Integer::compare).orElseThrow();
        int min = counts.values().stream().min(Integer::compare).orElseThrow();
        System.out.printf("ring balance over %d keys: %s (max/min = %.3f)%n", KEYS, counts, (double) max / min);
        assertThat(counts).containsOnlyKeys(THREE);
        assertThat((double) max / min).isLessThanOrEqualTo(1.10);
    }

    @Test
    void addingAFourthShardMovesAboutAQuarterOfTheKeysAndOnlyToTheNewShard() {
        var before = new HashRing<>(THREE, Function.identity(), CacheSettings.DEFAULT_VNODES);
        var after = new HashRing<>(List.of("shard-1", "shard-2", "shard-3", "shard-4"), Function.identity(),
                CacheSettings.DEFAULT_VNODES);
        int moved = 0;
        for (int i = 0; i < KEYS; i++) {
            String key = "hw:v1:post:" + i;
            String was = before.nodeFor(key);
            String now = after.nodeFor(key);
            if (!was.equals(now)) {
                moved++;
                assertThat(now).as("a moved key goes to the new shard, never between old ones").isEqualTo("shard-4");
            }
        }
        double share = (double) moved / KEYS;
        System.out.printf("adding shard-4 moved %.1f%% of %d keys%n", share * 100, KEYS);
        assertThat(share).isBetween(0.20, 0.30);
    }

    @Test
    void ownershipDependsOnTheShardNameNotItsPositionInTheList() {
        var ring = new HashRing<>(THREE, Function.identity(), 64);
        var reordered = new HashRing<>(List.of("shard-3", "shard-1", "shard-2"), Function.identity(), 64);
        for (int i = 0; i < 1000; i++) {
            assertThat(reordered.nodeFor("k" + i)).isEqualTo(ring.nodeFor("k" + i));
        }
    }

    @Test
    void removingAShardMovesOnlyThatShardsKeys() {
        var three = new HashRing<>(THREE, Function.identity(), CacheSettings.DEFAULT_VNODES);
        var two = new HashRing<>(List.of("shard-1", "shard-3"), Function.identity(), CacheSettings.DEFAULT_VNODES);
        for (int i = 0; i < 10_000; i++) {
            String key = "k" + i;
            if (!three.nodeFor(key).equals("shard-2")) {
                assertThat(two.nodeFor(key)).isEqualTo(three.nodeFor(key));
            }
        }
    }

    @Test
    void rejectsAnEmptyRing() {
        assertThatThrownBy(() -> new HashRing<>(List.<String>of(), Function.identity(), 10))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
