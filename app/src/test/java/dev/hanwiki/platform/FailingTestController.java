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
}
