package dev.hanwiki;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Points a test context at databases that refuse connections (a port that was just free) and
 * at a private index directory. Web-layer tests then exercise the real beans, including how
 * they behave when the database is down, without needing any external process.
 */
public final class UnreachableInfrastructure {

    private UnreachableInfrastructure() {
    }

    public static void register(DynamicPropertyRegistry registry, Path indexDir) {
        String url = "jdbc:mariadb://127.0.0.1:" + closedPort() + "/hanwiki";
        for (String pool : new String[] {"primary", "replica"}) {
            registry.add("hanwiki.datasource." + pool + ".url", () -> url);
            registry.add("hanwiki.datasource." + pool + ".username", () -> "nobody");
            registry.add("hanwiki.datasource." + pool + ".connection-timeout", () -> "250ms");
        }
        registry.add("hanwiki.search.index-path", indexDir::toString);
        registry.add("hanwiki.node.id", () -> "test");
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
