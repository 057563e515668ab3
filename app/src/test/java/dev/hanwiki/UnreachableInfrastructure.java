package dev.hanwiki;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Points a test context at databases and a token blacklist that refuse connections (a port
 * that was just free) and at a private index directory. Web-layer tests then exercise the real beans, including how
 * they behave when the database is down, without needing any external process.
 */
public final class UnreachableInfrastructure {

    /** Base64 of 32 bytes; only ever used by tests. */
    public static final String TEST_JWT_SECRET = "dGVzdC1vbmx5LXNlY3JldC1mb3ItaGFud2lraS10ZXN0cw==";

    private UnreachableInfrastructure() {
    }

    public static void register(DynamicPropertyRegistry registry, Path indexDir) {
        String url = "jdbc:mysql://127.0.0.1:" + closedPort() + "/hanwiki";
        for (String pool : new String[] {"primary", "replica"}) {
            registry.add("hanwiki.datasource." + pool + ".url", () -> url);
            registry.add("hanwiki.datasource." + pool + ".username", () -> "nobody");
            registry.add("hanwiki.datasource." + pool + ".connection-timeout", () -> "250ms");
        }
        registry.add("hanwiki.search.index-path", indexDir::toString);
        registry.add("hanwiki.node.id", () -> "test");
        // The token blacklist is unreachable too (authenticated calls fail closed); tokens are
        // signed with a throwaway test secret.
        registry.add("hanwiki.auth.jwt-secret", () -> TEST_JWT_SECRET);
        registry.add("hanwiki.auth.blacklist.port", () -> closedPort());
        registry.add("hanwiki.auth.blacklist.timeout", () -> "200ms");
        // The Redis cache shards refuse too: every read is a miss that goes to the origin.
        for (int i = 0; i < 3; i++) {
            int port = closedPort();
            String name = "shard-" + (i + 1);
            registry.add("hanwiki.cache.shards[" + i + "].name", () -> name);
            registry.add("hanwiki.cache.shards[" + i + "].port", () -> port);
        }
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
