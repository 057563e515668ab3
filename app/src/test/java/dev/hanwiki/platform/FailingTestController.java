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
}
