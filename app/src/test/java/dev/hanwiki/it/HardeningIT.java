package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The deployment's hardening (issue 11, docs/architecture.md "Exposure"), each rule tried the
 * way an intruder on the hosts' network would: without credentials, with the wrong ones, or by
 * reading files under var/.
 */
class HardeningIT {

    private static final String[] REDIS = {"REDIS_SHARD1", "REDIS_SHARD2", "REDIS_SHARD3", "REDIS_AUTH"};

    @Test
    void everyRedisRefusesAClientWithoutCredentials() throws IOException {
        for (String redis : REDIS) {
            try (java.net.Socket socket = new java.net.Socket(Stack.addr(redis), Stack.port(redis + "_PORT"))) {
                socket.setSoTimeout(5_000);
                socket.getOutputStream().write("GET anything\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                String answer = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                        java.nio.charset.StandardCharsets.US_ASCII)).readLine();
                assertThat(answer).as(redis).startsWith("-NOAUTH");
            }
        }
    }

    @Test
    void theAppUserCannotFlushReconfigureOrDebugAnyRedis() {
        for (String redis : REDIS) {
            RedisClient client = RedisClient.create(Stack.redisUri(redis));
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                assertThat(c.sync().ping()).isEqualTo("PONG");
                assertThatThrownBy(() -> c.sync().flushall()).as(redis + " FLUSHALL").hasMessageContaining("NOPERM");
                assertThatThrownBy(() -> c.sync().configGet("maxmemory")).as(redis + " CONFIG").hasMessageContaining("NOPERM");
                // Refused twice over: DEBUG is off in the server, and the ACL denies @dangerous anyway.
                assertThatThrownBy(() -> c.sync().debugObject("anything")).as(redis + " DEBUG")
                        .hasMessageMatching("(?s).*(NOPERM|DEBUG command not allowed).*");
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void theExporterUserCanOnlyLook() {
        RedisClient client = RedisClient.create(RedisURI.builder().withHost(Stack.addr("REDIS_AUTH"))
                .withPort(Stack.port("REDIS_AUTH_PORT")).withAuthentication("exporter", Stack.get("REDIS_EXPORTER_PASSWORD")).build());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            assertThat(c.sync().info("memory")).contains("used_memory");
            assertThatThrownBy(() -> c.sync().del("hanwiki:revoked:x")).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> c.sync().get("hanwiki:revoked:x")).hasMessageContaining("NOPERM");
        } finally {
            client.shutdown();
        }
    }

    @Test
    void kafkaRefusesAClientWithoutCredentialsAndServesTheStacksLogin() throws Exception {
        Map<String, Object> limits = Map.of("request.timeout.ms", 2_000, "default.api.timeout.ms", 4_000);
        Map<String, Object> anonymous = new java.util.HashMap<>(limits);
        anonymous.put("bootstrap.servers", Stack.hostPort("KAFKA"));
        try (Admin admin = Admin.create(anonymous)) {
            assertThatThrownBy(() -> admin.listTopics().names().get()).as("anonymous client")
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
        }
        try (Admin admin = Admin.create(Stack.kafka(limits))) {
            assertThat(admin.listTopics().names().get()).contains(Stack.get("CDC_POSTS_TOPIC"));
        }
    }

    @Test
    void theDatabaseRootCannotLogInOverTheNetwork() {
        for (String db : new String[] {"MARIADB_PRIMARY", "MARIADB_REPLICA"}) {
            String url = "jdbc:mysql://" + Stack.hostPort(db) + "/mysql";
            for (String password : new String[] {"", Stack.get("DB_ROOT_PASSWORD")}) {
                assertThatThrownBy(() -> DriverManager.getConnection(url, "root", password).close()).as(db)
                        .isInstanceOf(SQLException.class);
            }
        }
    }

    @Test
    void theAppUserMayReadTheChangeStreamButNotDeleteTopicsNorWriteConnectsTopics() throws Exception {
        Map<String, Object> limits = Map.of("request.timeout.ms", 4_000, "default.api.timeout.ms", 8_000,
                "max.block.ms", 8_000, "delivery.timeout.ms", 8_000, "retries", 0);
        String posts = Stack.get("CDC_POSTS_TOPIC");
        try (Admin admin = Admin.create(Stack.kafka(limits))) {
            assertThat(admin.listTopics().names().get()).as("topics hanwiki may see").contains(posts)
                    .doesNotContain("_connect-configs");
            assertThatThrownBy(() -> admin.deleteTopics(List.of(posts)).all().get()).as("delete the change topic")
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("hanwiki-intruder", 1, (short) 1))).all().get())
                    .as("create a topic").hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        for (String topic : new String[] {"_connect-configs", posts}) {
            try (var producer = new KafkaProducer<>(Stack.kafka(limits), new StringSerializer(), new StringSerializer())) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "intruder", "{}")).get())
                        .as("hanwiki writes to " + topic).hasCauseInstanceOf(TopicAuthorizationException.class);
            }
        }
    }

    @Test
    void connectsRestApiRefusesAClientWithoutTheOperatorsLogin() {
        String url = "http://" + Stack.hostPort("CONNECT") + "/connectors";
        assertThat(Http.get(url).status()).as("no credentials").isEqualTo(401);
        String wrong = java.util.Base64.getEncoder().encodeToString("operator:not-the-password".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(Http.call("GET", url).header("Authorization", "Basic " + wrong).send().status()).as("wrong password").isEqualTo(401);
        assertThat(Http.call("DELETE", url + "/hanwiki-mariadb").send().status()).as("delete the connector, anonymously").isEqualTo(401);
        Http.Response listed = Stack.connectGet("/connectors");
        assertThat(listed.status()).as("the operator's login").isEqualTo(200);
        assertThat(listed.body()).contains("hanwiki-mariadb");
    }

    @Test
    void theConnectorConfigAndItsRestAnswerHoldAReferenceNotThePassword() {
        String secret = Stack.get("DB_DEBEZIUM_PASSWORD");
        Http.Response r = Stack.connectGet("/connectors/hanwiki-mariadb/config");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(secret).contains("${file:");
    }

    @Test
    void noFileUnderVarThatHoldsASecretIsReadableByOtherUsers() throws IOException {
        List<String> secrets = new ArrayList<>();
        for (String key : new String[] {"DB_APP_PASSWORD", "DB_MIGRATE_PASSWORD", "DB_READONLY_PASSWORD", "DB_REPL_PASSWORD",
                "DB_DEBEZIUM_PASSWORD", "DB_EXPORTER_PASSWORD", "REDIS_APP_PASSWORD", "REDIS_EXPORTER_PASSWORD", "JWT_SECRET",
                "KAFKA_BROKER_PASSWORD", "KAFKA_APP_PASSWORD", "KAFKA_CONNECT_PASSWORD", "CONNECT_REST_PASSWORD"}) {
            secrets.add(Stack.get(key));
        }
        Path var = Path.of(Stack.get("VAR"));
        List<String> exposed = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> files = Files.walk(var)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)
                    .filter(f -> !f.startsWith(var.resolve("tools")) && !f.toString().contains("/index/"))::iterator) {
                try {
                    if (Files.size(f) > 32L << 20) {
                        continue;
                    }
                    String text = new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
                    checked++;
                    for (String secret : secrets) {
                        if (text.contains(secret) && Files.getPosixFilePermissions(f).contains(PosixFilePermission.OTHERS_READ)) {
                            exposed.add(var.relativize(f).toString());
                        }
                    }
                } catch (java.nio.file.NoSuchFileException gone) {
                    // A Kafka segment or a temp file removed while we walked: nothing to expose.
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        assertThat(checked).as("files checked under var/").isGreaterThan(20);
        assertThat(exposed).as("world-readable files holding a secret").isEmpty();
    }
}
