package dev.hanwiki.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ValueCodecTest {

    record Post(long id, String title, String content) {
    }

    private final ValueCodec<Post> codec = ValueCodec.deflated(ValueCodec.json(JsonMapper.builder().build(), Post.class));

    @Test
    void smallValuesAreStoredPlainBehindAMarkerByte() {
        Post post = new Post(1, "서울", "짧다");
        byte[] bytes = codec.encode(post);
        assertThat(bytes[0]).isEqualTo((byte) 0);
        assertThat(codec.decode(bytes)).isEqualTo(post);
    }

    @Test
    void largeKoreanBodiesAreDeflatedToAFractionAndComeBackIntact() {
        Post post = new Post(2, "경복궁", "경복궁과 북촌 한옥마을을 걸었다. 광화문에서 시작해 삼청동으로 올라갔다. ".repeat(200));
        byte[] plain = ValueCodec.json(JsonMapper.builder().build(), Post.class).encode(post);
        byte[] bytes = codec.encode(post);
        assertThat(bytes[0]).isEqualTo((byte) 1);
        assertThat(bytes.length).isLessThan(plain.length / 3);
        assertThat(codec.decode(bytes)).isEqualTo(post);
    }

    @Test
    void aTruncatedValueIsRejectedNotMisread() {
        byte[] bytes = codec.encode(new Post(3, "t", "x".repeat(5000)));
        byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length / 2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> codec.decode(truncated))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
