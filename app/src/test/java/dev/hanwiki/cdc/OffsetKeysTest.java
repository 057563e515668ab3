package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OffsetKeysTest {

    @Test
    void offsetsRoundTripThroughCommitUserData() {
        Map<String, String> data = OffsetKeys.encode("hanwiki.hanwiki.posts", Map.of(0, 17L, 1, 4L));

        assertThat(data).containsExactlyInAnyOrderEntriesOf(Map.of(
                "kafka.hanwiki.hanwiki.posts.0", "17", "kafka.hanwiki.hanwiki.posts.1", "4"));
        assertThat(OffsetKeys.decode("hanwiki.hanwiki.posts", data)).isEqualTo(Map.of(0, 17L, 1, 4L));
    }

    @Test
    void otherTopicsAndForeignKeysAreIgnored() {
        Map<String, String> data = Map.of(
                "kafka.hanwiki.hanwiki.posts.0", "9",
                "kafka.hanwiki.hanwiki.posts.extra", "1",
                "kafka.other.0", "5",
                "schema", "3");

        assertThat(OffsetKeys.decode("hanwiki.hanwiki.posts", data)).isEqualTo(Map.of(0, 9L));
    }
}
