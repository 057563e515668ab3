package dev.hanwiki.platform;

import java.util.regex.Pattern;

/**
 * The two GTID dialects. MariaDB (the local stack) names a transaction {@code domain-server-seq}
 * and tells a session the GTID of its own last commit; MySQL (production) uses
 * {@code uuid:interval} sets and has no per-session value, so the server's whole executed set
 * stands in for it (waiting for it is conservative, never wrong).
 */
enum GtidFlavor {

    MARIADB("SELECT @@last_gtid", "SELECT @@global.gtid_binlog_pos",
            "SELECT MASTER_GTID_WAIT(?, ?)", 0,
            Pattern.compile("\\d{1,10}-\\d{1,10}-\\d{1,20}(,\\d{1,10}-\\d{1,10}-\\d{1,20}){0,31}")),
    MYSQL("SELECT @@global.gtid_executed", "SELECT @@global.gtid_executed",
            "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)", 0,
            Pattern.compile("[0-9a-fA-F-]{36}(:[a-zA-Z0-9_]{1,32})?(:\\d{1,20}(-\\d{1,20})?)+"
                    + "(,\\s*[0-9a-fA-F-]{36}(:[a-zA-Z0-9_]{1,32})?(:\\d{1,20}(-\\d{1,20})?)+){0,31}"));

    private static final int MAX_LENGTH = 2048;

    /** Returns the GTID (set) this session committed last, on the connection that committed. */
    final String lastCommitSql;
    /** Returns the position up to which the primary has logged transactions. */
    final String primaryPositionSql;
    /** Waits (position, timeout in seconds) until the server has applied a position. */
    final String waitSql;
    private final int reached;
    private final Pattern position;

    GtidFlavor(String lastCommitSql, String primaryPositionSql, String waitSql, int reached, Pattern position) {
        this.lastCommitSql = lastCommitSql;
        this.primaryPositionSql = primaryPositionSql;
        this.waitSql = waitSql;
        this.reached = reached;
        this.position = position;
    }

    /** @param result what {@link #waitSql} returned (null on MariaDB when the wait could not start) */
    boolean reached(Integer result) {
        return result != null && result == reached;
    }

    /** Positions come from clients; anything that is not one is ignored rather than sent to the server. */
    boolean isPosition(String value) {
        return value != null && !value.isEmpty() && value.length() <= MAX_LENGTH && position.matcher(value).matches();
    }
}
