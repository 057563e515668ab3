package dev.hanwiki.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The running native stack as the integration tests see it: every port comes from
 * infra/ports.env (the one file that defines them) and every password from the
 * var/secrets.env that infra generated. Missing files fail loudly: these tests never
 * skip because a service is absent.
 */
final class Stack {

    static final Path ROOT = Path.of(System.getProperty("hanwiki.root", "..")).toAbsolutePath().normalize();
    private static final Map<String, String> ENV = load();

    private Stack() {
    }

    private static Map<String, String> load() {
        Map<String, String> env = new HashMap<>();
        read(ROOT.resolve("infra/ports.env"), env);
        String var = env.get("HANWIKI_VAR");
        Path varDir = var.startsWith("/") ? Path.of(var) : ROOT.resolve(var);
        Path secrets = varDir.resolve("secrets.env");
        if (!Files.exists(secrets)) {
            throw new IllegalStateException(secrets + " is missing: the stack is not up. Run 'make up' (make test does it for you).");
        }
        read(secrets, env);
        env.put("VAR", varDir.toString());
        return env;
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

    static String get(String key) {
        String v = ENV.get(key);
        if (v == null) {
            throw new IllegalStateException(key + " is not defined in infra/ports.env or var/secrets.env");
        }
        return v;
    }

    static int port(String key) {
        return Integer.parseInt(get(key));
    }

    /** hosts (network namespaces) or local (127.0.0.1); the environment overrides ports.env. */
    static String topology() {
        String env = System.getenv("HANWIKI_TOPOLOGY");
        return env != null && !env.isBlank() ? env : get("HANWIKI_TOPOLOGY");
    }

    /**
     * The address a component (a ports.env prefix: NODE1, MARIADB_PRIMARY, KAFKA...) is reached
     * at: its host's address, or 127.0.0.1 in the local topology (docs/adr/0050).
     */
    static String addr(String component) {
        if ("local".equals(topology())) {
            return "127.0.0.1";
        }
        return get("HOST_" + get(component + "_HOST") + "_ADDR");
    }

    /** host:port of a component whose port is {@code <component>_PORT}. */
    static String hostPort(String component) {
        return addr(component) + ":" + port(component + "_PORT");
    }

    /** The public entry (nginx). */
    static String api() {
        return "http://127.0.0.1:" + port("NGINX_PORT") + "/api/v1.0";
    }

    /** An app node queried directly, bypassing nginx. */
    static String node(int n) {
        return "http://127.0.0.1:" + port("NODE" + n + "_PORT");
    }

    static Connection primary() throws SQLException {
        return DriverManager.getConnection(jdbc("MARIADB_PRIMARY_PORT"), "hanwiki_app", get("DB_APP_PASSWORD"));
    }

    static Connection replica() throws SQLException {
        return DriverManager.getConnection(jdbc("MARIADB_REPLICA_PORT"), "hanwiki_ro", get("DB_READONLY_PASSWORD"));
    }

    /** The migration account (DDL on the app schema), as Flyway uses it. */
    static Connection primaryAsMigrator() throws SQLException {
        return DriverManager.getConnection(jdbc("MARIADB_PRIMARY_PORT"), "hanwiki_migrate", get("DB_MIGRATE_PASSWORD"));
    }

    private static String jdbc(String portKey) {
        return "jdbc:mysql://127.0.0.1:" + port(portKey) + "/" + get("MARIADB_DATABASE");
    }

    /**
     * Waits until nginx routes to both nodes. A node that was down stays out of nginx's rotation
     * for its {@code fail_timeout} (5 s) after it is back; a drill that stops the other node in
     * that window would leave nginx with no live node at all, which is not what it tests.
     */
    static void awaitNginxRoutesToBothNodes() {
        java.util.Set<String> answered = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.Set<String> both = java.util.Set.of("127.0.0.1:" + port("NODE1_PORT"), "127.0.0.1:" + port("NODE2_PORT"));
        Eventually.within(java.time.Duration.ofSeconds(30), "nginx routes to both nodes", () -> {
            Http.Response r = Http.get(api() + "/categories");
            if (r.status() == 200) {
                String[] tried = r.header("X-Upstream").split(",\\s*");
                answered.add(tried[tried.length - 1]); // the one that answered
            }
            return answered.containsAll(both);
        });
    }

    /** Runs an infra script (e.g. {@code ctl.sh kill node2}); returns its output, fails with it if the script fails. */
    static String infra(String script, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("infra").resolve(script).toString()));
        cmd.addAll(List.of(args));
        Run run = run(cmd);
        if (run.exitCode() != 0) {
            throw new AssertionError("failed (" + run.exitCode() + "): " + cmd + "\n" + run.output());
        }
        return run.output();
    }

    /** What a command printed (stdout and stderr together) and its exit code. */
    record Run(int exitCode, String output) {
    }

    /**
     * The checker of {@code make verify-index} (infra/verify_index.py), re-checking for up to
     * {@code waitSeconds}: exit code 0 only when both nodes show zero missing, stale, ghost and
     * duplicate posts.
     */
    static Run verifyIndex(int waitSeconds) {
        return run(List.of("python3", ROOT.resolve("infra/verify_index.py").toString(), "--wait", String.valueOf(waitSeconds)));
    }

    /** Runs {@code cmd} in the repository root (at most 180 s). */
    static Run run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + cmd + "\n" + out);
            }
            return new Run(p.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + cmd, e);
        }
    }
}
