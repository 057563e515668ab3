package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The topology itself: replication, CDC, nginx in front of two nodes. */
class StackIT {

    @Test
    void replicaReceivesAWriteToThePrimary() throws Exception {
        String name = "r" + Search.uniqueWord().substring(0, 12);
        try (var c = Stack.primary(); var ps = c.prepareStatement(
                "INSERT INTO users (username, nickname, created_at) VALUES (?, ?, NOW(6))")) {
            ps.setString(1, name);
            ps.setString(2, name.substring(0, 12));
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        try {
            Eventually.within(Duration.ofSeconds(2), "user row on the replica", () -> {
                try (var c = Stack.replica(); var ps = c.prepareStatement("SELECT COUNT(*) FROM users WHERE username = ?")) {
                    ps.setString(1, name);
                    try (var rs = ps.executeQuery()) {
                        return rs.next() && rs.getInt(1) == 1;
                    }
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            });
        } finally {
            try (var c = Stack.primary(); var ps = c.prepareStatement("DELETE FROM users WHERE username = ?")) {
                ps.setString(1, name);
                ps.executeUpdate();
            }
        }
    }

    @Test
    void replicaRefusesWritesFromTheReadOnlyUser() throws Exception {
        try (var c = Stack.replica(); var st = c.createStatement(); var rs = st.executeQuery("SELECT @@read_only")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        try (var c = Stack.replica(); var st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeUpdate(
                    "INSERT INTO users (username, nickname, created_at) VALUES ('nope12', 'nope12', NOW(6))"))
                    .isInstanceOf(SQLException.class);
        }
    }

    @Test
    void debeziumConnectorAndItsTaskAreRunning() {
        var r = Stack.connectGet("/connectors/hanwiki-mariadb/status");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("connector").path("state").asString()).isEqualTo("RUNNING");
        assertThat(r.json().path("tasks")).hasSize(1);
        assertThat(r.json().path("tasks").get(0).path("state").asString()).isEqualTo("RUNNING");
    }

    @Test
    void nginxHidesActuatorAndInternalPaths() {
        String base = "http://127.0.0.1:" + Stack.port("NGINX_PORT");
        assertThat(Http.get(base + "/actuator/health").status()).isEqualTo(404);
        assertThat(Http.get(base + "/actuator/prometheus").status()).isEqualTo(404);
        assertThat(Http.get(base + "/internal/index/stats").status()).isEqualTo(404);
        // ...while the nodes themselves answer them on their own ports.
        assertThat(Http.get(Stack.management(1) + "/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(Http.get(Stack.node(2) + "/internal/index/stats").status()).isEqualTo(200);
    }

    @Test
    void nginxSpreadsRequestsOverBothNodes() {
        Set<String> upstreams = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            var r = Http.get(Stack.api() + "/posts/search?q=" + Http.enc("서울"));
            assertThat(r.status()).isEqualTo(200);
            upstreams.add(r.header("X-Upstream"));
        }
        assertThat(upstreams).contains(Stack.hostPort("NODE1"), Stack.hostPort("NODE2"));
    }

    @Test
    void prometheusScrapesBothNodesAndEveryExporter() {
        String targets = "http://" + Stack.hostPort("PROMETHEUS") + "/api/v1/targets?state=active";
        java.util.Map<String, Long> upByJob = new java.util.TreeMap<>();
        Eventually.within(Duration.ofSeconds(30), "every scrape target up", () -> {
            upByJob.clear();
            boolean allUp = true;
            for (var t : Http.get(targets).json().path("data").path("activeTargets")) {
                boolean up = "up".equals(t.path("health").asString());
                allUp &= up;
                upByJob.merge(t.path("labels").path("job").asString(), up ? 1L : 0L, Long::sum);
            }
            return allUp;
        });
        assertThat(upByJob).containsEntry("hanwiki-app", 2L).containsEntry("mysqld", 2L).containsEntry("redis", 4L)
                // one node exporter per host (one in the local topology)
                .containsEntry("node", "hosts".equals(Stack.topology()) ? 3L : 1L)
                .containsEntry("nginx", 1L).containsEntry("prometheus", 1L)
                .containsEntry("alertmanager", 1L).containsEntry("mtail", 1L).containsEntry("kafka", 1L).containsEntry("connect", 1L);
    }

    @Test
    void everyDashboardQueryIsValidPromQLAndTheAppPanelsHaveData() throws Exception {
        var dashboard = Http.JSON.readTree(java.nio.file.Files.readString(
                Stack.ROOT.resolve("grafana/dashboards/hanwiki-overview.json")));
        String api = "http://" + Stack.hostPort("PROMETHEUS") + "/api/v1/query?query=";
        int checked = 0;
        for (var panel : dashboard.path("panels")) {
            for (var target : panel.path("targets")) {
                String expr = target.path("expr").asString();
                var r = Http.get(api + Http.enc(expr));
                assertThat(r.status()).as(panel.path("title").asString() + ": " + r.body()).isEqualTo(200);
                assertThat(r.json().path("status").asString()).isEqualTo("success");
                checked++;
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(10);
        Eventually.within(Duration.ofSeconds(20), "indexed-documents panel has both nodes", () ->
                Http.get(api + Http.enc("hanwiki_index_docs")).json().path("data").path("result").size() == 2);
    }

    @Test
    void searchAnswersTheEnvelopeThroughNginx() {
        var r = Http.get(Stack.api() + "/posts/search?q=" + Http.enc("한국어 검색"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("status").asInt()).isEqualTo(200);
        var data = r.data();
        assertThat(data.path("results").path("content").isArray()).isTrue();
        assertThat(data.path("results").has("hasNext")).isTrue();
        assertThat(data.has("suggestion")).isTrue();
        assertThat(data.path("categoryFacets").isObject()).isTrue();
    }
}
