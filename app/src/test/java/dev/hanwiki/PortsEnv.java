package dev.hanwiki;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * infra/ports.env (the one file that defines every port and path) and var/secrets.env as the
 * Java tests, integration tests and benches read them: plain KEY=VALUE lines, plus VAR, the
 * state directory made absolute, as infra/lib/common.sh and infra/lib/ports_env.py do. The one
 * reader in Java; the shell and Python have one each.
 */
public final class PortsEnv {

    private PortsEnv() {
    }

    /** The repository root: the {@code hanwiki.root} system property (Failsafe sets it), else {@code ..}. */
    public static Path root() {
        return Path.of(System.getProperty("hanwiki.root", "..")).toAbsolutePath().normalize();
    }

    /** infra/ports.env of {@code root}, plus VAR. */
    public static Map<String, String> load(Path root) {
        Map<String, String> env = new HashMap<>();
        read(root.resolve("infra/ports.env"), env);
        String var = env.get("HANWIKI_VAR");
        if (var == null) {
            throw new IllegalStateException("HANWIKI_VAR is not defined in " + root.resolve("infra/ports.env"));
        }
        env.put("VAR", (var.startsWith("/") ? Path.of(var) : root.resolve(var)).toString());
        return env;
    }

    /** The same plus var/secrets.env, which exists once infra has set the stack up; fails loudly if it does not. */
    public static Map<String, String> loadWithSecrets(Path root) {
        Map<String, String> env = load(root);
        Path secrets = Path.of(env.get("VAR")).resolve("secrets.env");
        if (!Files.exists(secrets)) {
            throw new IllegalStateException(secrets + " is missing: the stack is not up. Run 'make up' (make test does it for you).");
        }
        read(secrets, env);
        return env;
    }

    /** hosts (network namespaces) or local (127.0.0.1): the environment overrides ports.env (ADR 0050). */
    public static String topology(Map<String, String> env) {
        String fromEnvironment = System.getenv("HANWIKI_TOPOLOGY");
        return fromEnvironment != null && !fromEnvironment.isBlank() ? fromEnvironment : env.get("HANWIKI_TOPOLOGY");
    }

    /**
     * The address a component (a ports.env prefix: NODE1, MARIADB_PRIMARY, KAFKA...) binds and is
     * reached at: its host's HOST_h_ADDR, or 127.0.0.1 in the local topology. The same derivation
     * as infra/lib/common.sh's addr_of and infra/lib/ports_env.py's addr.
     */
    public static String addr(Map<String, String> env, String component) {
        if ("local".equals(topology(env))) {
            return "127.0.0.1";
        }
        String host = env.get(component + "_HOST");
        if (host == null) {
            throw new IllegalStateException(component + "_HOST is not defined in infra/ports.env");
        }
        return env.get("HOST_" + host + "_ADDR");
    }

    private static void read(Path file, Map<String, String> into) {
        try {
            for (String line : Files.readAllLines(file)) {
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#") || !t.contains("=")) {
                    continue;
                }
                int eq = t.indexOf('=');
                into.put(t.substring(0, eq), t.substring(eq + 1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
