package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.UncategorizedSQLException;

class DatabaseFullTest {

    private static UncategorizedSQLException refused(int code, String message) {
        return new UncategorizedSQLException("PreparedStatementCallback", "INSERT INTO posts",
                new SQLException(message, "HY000", code));
    }

    @Test
    void aTableThatCannotGrowAndTheServersDiskFullErrorAreFull() {
        assertThat(DatabaseFull.is(refused(1114, "The table 'posts' is full"))).isTrue();
        assertThat(DatabaseFull.is(refused(1021, "Disk full (/var/tmp/x); waiting for someone to free some space..."))).isTrue();
    }

    @Test
    void aWriteOrEngineErrorIsFullOnlyWithErrno28() {
        assertThat(DatabaseFull.is(refused(1026, "Error writing file './binlog.000003' (errno: 28 \"No space left on device\")"))).isTrue();
        assertThat(DatabaseFull.is(refused(1030, "Got error 28 \"No space left on device\" from storage engine InnoDB"))).isTrue();
        assertThat(DatabaseFull.is(refused(1026, "Error writing file './binlog.000003' (errno: 5 \"Input/output error\")"))).isFalse();
        assertThat(DatabaseFull.is(refused(1030, "Got error 128 from storage engine InnoDB"))).isFalse();
    }

    @Test
    void otherErrorsAreNot() {
        assertThat(DatabaseFull.is(refused(1105, "Unknown error"))).isFalse();
        assertThat(DatabaseFull.is(new IllegalStateException("no SQL here"))).isFalse();
    }
}
