package dev.hanwiki.autocomplete;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.change.PostsIndexed;
import org.junit.jupiter.api.Test;

class TitleChangeWriterTest {

    private static PostsIndexed.Change upsert(long version) {
        return new PostsIndexed.Change(1, false, version, "제목 " + version, 1L, 0, 0, true, false);
    }

    private static PostsIndexed.Change delete(long version) {
        return new PostsIndexed.Change(1, true, version, null, null, 0, 0, true, false);
    }

    @Test
    void ofTwoFailedChangesOfAPostTheLaterIsRetriedWhicheverFailedFirst() {
        assertThat(TitleChangeWriter.later(upsert(1), upsert(2))).isEqualTo(upsert(2));
        assertThat(TitleChangeWriter.later(upsert(2), upsert(1))).isEqualTo(upsert(2));
        assertThat(TitleChangeWriter.later(upsert(2), delete(3))).isEqualTo(delete(3));
        assertThat(TitleChangeWriter.later(delete(3), upsert(2))).isEqualTo(delete(3));
        // A delete of the version it removes wins over that version's upsert.
        assertThat(TitleChangeWriter.later(upsert(3), delete(3))).isEqualTo(delete(3));
        assertThat(TitleChangeWriter.later(delete(3), upsert(3))).isEqualTo(delete(3));
    }
}
