package dev.hanwiki.it;

import dev.hanwiki.PortsEnv;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The running native stack as the integration tests see it: every port comes from
 * infra/ports.env (the one file that defines them) and every password from the
 * var/secrets.env that infra generated. Missing files fail loudly: these tests never
 * skip because a service is absent.
 */
public final class Stack {

    static final Path ROOT = PortsEnv.root();
    private static final Map<String, String> ENV = load();

    private Stack() {
    }

    private static Map<String, String> load() {
        return PortsEnv.loadWithSecrets(ROOT);
    }

    static String get(String key) {
        String v = ENV.get(key);
        if (v == null) {
            throw new IllegalStateException(key + " is not defined in infra/ports.env or var/secrets.env");
        }
        return v;
    }

    public static int port(String key) {
        return Integer.parseInt(get(key));
    }

    /** hosts (network namespaces) or local (127.0.0.1); the environment overrides ports.env. */
    static String topology() {
        return PortsEnv.topology(ENV);
    }

    /** The address a component (a ports.env prefix: NODE1, MARIADB_PRIMARY, KAFKA...) is reached at. */
    public static String addr(String component) {
        return PortsEnv.addr(ENV, component);
    }

    /** host:port of a component whose port is {@code <component>_PORT}. */
    public static String hostPort(String component) {
        return addr(component) + ":" + port(component + "_PORT");
    }

    /** The Redis ACL user the app nodes use on every Redis (infra/templates/redis-*.conf). */
    public static final String REDIS_USER = "hanwiki";

    public static String redisPassword() {
        return get("REDIS_APP_PASSWORD");
    }

    /** redis://user:password@address:port of a Redis component (REDIS_SHARD1, REDIS_AUTH...). */
    public static String redisUri(String component) {
        return "redis://" + REDIS_USER + ":" + redisPassword() + "@" + hostPort(component);
    }

    /**
     * A Kafka client's configuration: the broker on host B and the SASL/SCRAM login the stack
     * gives its own tools (the broker refuses anonymous clients), plus {@code extra}.
     */
    public static Map<String, Object> kafka(Map<String, Object> extra) {
        return kafkaAs("hanwiki", get("KAFKA_APP_PASSWORD"), extra);
    }

    /**
     * The same as Connect's worker logs in ({@code connect}): the one user the broker's ACLs let
     * write the change topics, for tests that stand in for Debezium.
     */
    public static Map<String, Object> kafkaAsConnect(Map<String, Object> extra) {
        return kafkaAs("connect", get("KAFKA_CONNECT_PASSWORD"), extra);
    }

    /**
     * The stack's own tools' login ({@code broker}, the superuser): for what an operator does, such
     * as reading the dead letters, which no service user may read.
     */
    public static Map<String, Object> kafkaAsOperator(Map<String, Object> extra) {
        return kafkaAs("broker", get("KAFKA_BROKER_PASSWORD"), extra);
    }

    private static Map<String, Object> kafkaAs(String user, String password, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put("bootstrap.servers", hostPort("KAFKA"));
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "SCRAM-SHA-512");
        config.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" "
                + "password=\"" + password + "\";");
        return config;
    }

    /** A GET on Connect's REST API as the operator (it demands basic auth: infra/lib/kafka.sh). */
    static Http.Response connectGet(String path) {
        String login = "operator:" + get("CONNECT_REST_PASSWORD");
        return Http.call("GET", "http://" + hostPort("CONNECT") + path).header("Authorization",
                "Basic " + java.util.Base64.getEncoder().encodeToString(login.getBytes(java.nio.charset.StandardCharsets.UTF_8))).send();
    }

    /**
     * A local address the tests may send from as a distinct client: 127.0.0.x as given in the
     * local topology; in the host topology the same last byte in the machine's client range
     * (HOSTS_CLIENTS_NET, routed to the machine by infra/lib/hosts.sh), since nginx on host A
     * cannot answer a loopback address of the machine.
     */
    static String clientAddress(String loopback) {
        if (!"hosts".equals(topology()) || !loopback.startsWith("127.")) {
            return loopback;
        }
        if (loopback.equals("127.0.0.1")) {
            return get("HOSTS_GATEWAY_ADDR"); // the machine itself, as everything it sends is seen
        }
        String net = get("HOSTS_CLIENTS_NET");
        String prefix = net.substring(0, net.lastIndexOf('.') + 1);
        return prefix + loopback.substring(loopback.lastIndexOf('.') + 1);
    }

    /** A URL through the public entry on localhost rewritten to nginx itself (host topology only). */
    static String direct(String url) {
        String entry = "http://127.0.0.1:" + port("NGINX_PORT");
        if ("hosts".equals(topology()) && url.startsWith(entry)) {
            return "http://" + hostPort("NGINX") + url.substring(entry.length());
        }
        return url;
    }

    /** The public entry (nginx). */
    static String api() {
        return "http://127.0.0.1:" + port("NGINX_PORT") + "/api/v1.0";
    }

    /** An app node's management side (actuator), reachable from its host, host M and the machine. */
    static String management(int n) {
        return "http://" + addr("NODE" + n) + ":" + port("NODE" + n + "_MANAGEMENT_PORT");
    }

    /** An app node queried directly, bypassing nginx. */
    static String node(int n) {
        return "http://" + hostPort("NODE" + n);
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
        return "jdbc:mysql://" + addr(portKey.substring(0, portKey.length() - "_PORT".length())) + ":" + port(portKey)
                + "/" + get("MARIADB_DATABASE");
    }

    /**
     * Waits until nginx routes to both nodes. A node that was down stays out of nginx's rotation
     * for its {@code fail_timeout} (5 s) after it is back; a drill that stops the other node in
     * that window would leave nginx with no live node at all, which is not what it tests.
     */
    static void awaitNginxRoutesToBothNodes() {
        java.util.Set<String> answered = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.Set<String> both = java.util.Set.of(hostPort("NODE1"), hostPort("NODE2"));
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
        return infra(Map.of(), script, args);
    }

    /**
     * The same with extra environment variables, e.g. a Spring property for a node that
     * {@code ctl.sh start} starts ({@code HANWIKI_VIEWS_FLUSHINTERVAL=5m}): the script passes
     * its environment on to the processes it starts.
     */
    static String infra(Map<String, String> env, String script, String... args) {
        return infra(env, INFRA_TIMEOUT, script, args);
    }

    /**
     * The same, for a drill that redoes corpus-wide work: {@code limit} is its {@link Budgets}
     * figure plus the drill's own time, instead of the fixed 10 minutes.
     */
    static String infra(java.time.Duration limit, String script, String... args) {
        return infra(Map.of(), limit, script, args);
    }

    private static String infra(Map<String, String> env, java.time.Duration limit, String script, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("infra").resolve(script).toString()));
        cmd.addAll(List.of(args));
        Run run = run(cmd, env, limit);
        if (run.exitCode() != 0) {
            throw new AssertionError("failed (" + run.exitCode() + "): " + cmd + "\n" + run.output());
        }
        return run.output();
    }

    /** No infra script runs longer (a node rebuilt from a large topic is the slowest). */
    private static final java.time.Duration INFRA_TIMEOUT = java.time.Duration.ofMinutes(10);

    /**
     * Restores components a destructive test stops or kills: {@code ctl.sh start} each (a no-op
     * for one that runs) when closed, so a failing drill does not leave the stack broken for
     * every later test. Use it in try-with-resources around the drill.
     */
    static AutoCloseable restoreOnExit(String... components) {
        return () -> {
            AssertionError failed = null;
            long started = System.nanoTime();
            for (String component : components) {
                try {
                    infra("ctl.sh", "start", component);
                } catch (AssertionError e) {
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            if (failed != null) {
                throw failed;
            }
            if (java.util.Arrays.stream(components).anyMatch(CHANGE_STREAM::contains)) {
                awaitChangeStream(started);
            }
        };
    }

    /** The components a write passes on its way from the primary to the indexes. */
    private static final java.util.Set<String> CHANGE_STREAM = java.util.Set.of("mariadb-primary", "kafka", "connect");

    /**
     * A component of the change stream that is back is not yet a stream that flows again
     * (Debezium reconnects to a restarted primary on its next keep-alive, up to 10 s later):
     * the next test class would see its first write arrive late. So a restore of one of them
     * ends only once a probe write is searchable on both nodes.
     */
    private static void awaitChangeStream(long restoreStarted) {
        String word = Search.uniqueWord();
        long[] probe = {0};
        // the first write after a primary restart may meet a pooled connection the restart closed
        // (every 500 ms: not a burst of writes into the write limit)
        Eventually.within(CHANGE_STREAM_RESUMES, java.time.Duration.ofMillis(500), "a probe write is acknowledged", () -> {
            try {
                probe[0] = Search.create("복구 확인 " + word, "변경 스트림이 다시 흐른다 " + word);
                return true;
            } catch (AssertionError | java.io.UncheckedIOException refused) {
                return false;
            }
        });
        long id = probe[0];
        Eventually.within(CHANGE_STREAM_RESUMES, java.time.Duration.ofMillis(200),
                "the change stream flows again (probe post " + id + " searchable on both nodes)", () -> {
                    try {
                        return Search.idsOn(1, word).contains(id) && Search.idsOn(2, word).contains(id);
                    } catch (AssertionError | java.io.UncheckedIOException notYet) {
                        return false; // a node still restoring its connections: ask again
                    }
                });
        System.out.printf("restoreOnExit: the change stream flows again %d ms after the restore began%n",
                (System.nanoTime() - restoreStarted) / 1_000_000);
    }

    /** Debezium's keep-alive (10 s) plus a restarted broker's or worker's rebalance, with room. */
    private static final java.time.Duration CHANGE_STREAM_RESUMES = java.time.Duration.ofSeconds(90);

    /** What a command printed (stdout and stderr together) and its exit code. */
    record Run(int exitCode, String output) {
    }

    /**
     * The checker of {@code make verify-index} (infra/verify_index.py), re-checking for up to
     * {@code waitSeconds}: exit code 0 only when both nodes show zero missing, stale, ghost and
     * duplicate posts, and then no post whose indexed content differs at the same version.
     */
    static Run verifyIndex(int waitSeconds) {
        // The comparison itself reads every live post's digest from the primary and both nodes:
        // up to a few minutes on a large corpus, on top of the wait.
        return run(List.of("python3", ROOT.resolve("infra/verify_index.py").toString(), "--wait", String.valueOf(waitSeconds)),
                Map.of(), java.time.Duration.ofSeconds(waitSeconds).plusMinutes(5));
    }

    /** Runs {@code cmd} in the repository root (at most 180 s). */
    static Run run(List<String> cmd) {
        return run(cmd, Map.of(), java.time.Duration.ofSeconds(180));
    }

    /**
     * Runs {@code cmd} in the repository root with {@code env} added, for at most {@code limit}:
     * then it and every process it started are killed and the test fails with what it printed.
     * Output goes to a file, so a process that keeps it open cannot stall the wait.
     */
    static Run run(List<String> cmd, Map<String, String> env, java.time.Duration limit) {
        Path out = null;
        try {
            out = Files.createTempFile("hanwiki-it-run", ".log");
            ProcessBuilder builder = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile());
            builder.environment().putAll(env);
            Process p = builder.start();
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("timed out after " + limit + ": " + cmd + "\n" + new String(Files.readAllBytes(out)));
            }
            return new Run(p.exitValue(), new String(Files.readAllBytes(out)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + cmd, e);
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }
}
