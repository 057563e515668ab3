package dev.hanwiki.platform;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test-only endpoint standing for any bug: its exception message imitates the internals that
 * must never reach a client. Top-level because Boot's test scanning skips classes nested in tests.
 */
@RestController
class FailingTestController {

    @GetMapping("/test/boom")
    String boom() {
        throw new IllegalStateException("SELECT secret FROM users -- at dev.hanwiki.Secret.java:42");
    }

    /** What a transaction reports when its connection died mid-way and the rollback failed too (primary-restart). */
    @GetMapping("/test/rollback-lost")
    String rollbackLost() {
        var lost = new org.springframework.transaction.TransactionSystemException("JDBC rollback failed",
                new java.sql.SQLException("Connection is closed"));
        lost.initApplicationException(new org.springframework.dao.RecoverableDataAccessException("Communications link failure"));
        throw lost;
    }

    /** What a create meets when the primary's tablespace cannot grow (chaos disk-full): error 1114. */
    @GetMapping("/test/table-full")
    String tableFull() {
        throw new org.springframework.jdbc.UncategorizedSQLException("PreparedStatementCallback", "INSERT INTO posts",
                new java.sql.SQLException("The table 'posts' is full", "HY000", 1114));
    }

    /** Another uncategorized database error: still a bug, still a 500. */
    @GetMapping("/test/sql-other")
    String otherSqlError() {
        throw new org.springframework.jdbc.UncategorizedSQLException("PreparedStatementCallback", "SELECT 1",
                new java.sql.SQLException("Unknown error", "HY000", 1105));
    }
}
