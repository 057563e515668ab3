package dev.hanwiki.platform;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * DATETIME(6) columns hold UTC wall-clock time. Debezium reads DATETIME as if it were UTC
 * (epoch microseconds), so writing UTC keeps the database, the index and the API in agreement.
 *
 * <p>A time is bound as the text {@code yyyy-MM-dd HH:mm:ss.SSSSSS}, not as a
 * {@link LocalDateTime}: MySQL Connector/J reads MariaDB 10.x's protocol version
 * ({@code 5.5.5-10.11...}) as MySQL 5.5.5, which had no fractional seconds, and so drops the
 * fraction of every temporal parameter it sends there. Every row time was whole seconds, and a
 * node's write-to-searchable lag, measured from {@code updated_at}, read up to a second high
 * (500 ms on average). Text keeps all six digits on MariaDB and on MySQL 8.4 (compose) alike.
 */
public final class DatabaseTime {

    private static final DateTimeFormatter COLUMN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private DatabaseTime() {
    }

    /** The parameter for a DATETIME(6) column: UTC, to the microsecond. */
    public static String toColumn(Instant instant) {
        return COLUMN.format(LocalDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC));
    }

    public static Instant fromColumn(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }
}
