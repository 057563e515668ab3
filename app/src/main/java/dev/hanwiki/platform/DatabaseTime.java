package dev.hanwiki.platform;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * DATETIME(6) columns hold UTC wall-clock time. Debezium reads DATETIME as if it were UTC
 * (epoch microseconds), so writing UTC keeps the database, the index and the API in agreement.
 */
public final class DatabaseTime {

    private DatabaseTime() {
    }

    public static LocalDateTime toColumn(Instant instant) {
        return LocalDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    public static Instant fromColumn(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }
}
