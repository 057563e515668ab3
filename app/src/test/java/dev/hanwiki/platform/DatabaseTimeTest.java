package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class DatabaseTimeTest {

    @Test
    void aColumnParameterKeepsTheMicrosecondsInUtc() {
        assertThat(DatabaseTime.toColumn(Instant.parse("2026-12-07T19:00:00.123456789Z")))
                .isEqualTo("2026-12-07 19:00:00.123456");
        assertThat(DatabaseTime.toColumn(Instant.parse("2026-12-07T19:00:00Z")))
                .isEqualTo("2026-12-07 19:00:00.000000");
    }

    @Test
    void readingAColumnBackGivesTheSameInstant() {
        Instant at = Instant.parse("2026-01-02T03:04:05.000006Z");
        assertThat(DatabaseTime.fromColumn(LocalDateTime.parse(DatabaseTime.toColumn(at).replace(' ', 'T'))))
                .isEqualTo(at);
        assertThat(DatabaseTime.fromColumn(null)).isNull();
    }
}
