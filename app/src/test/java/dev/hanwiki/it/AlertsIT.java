package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole alerting path for real: a component is stopped with infra/ctl.sh, Prometheus'
 * rule fires, Alertmanager routes it by severity to the stack's webhook receiver, which
 * appends it to var/alerts/received.jsonl; the component is started again and the resolution
 * arrives the same way. Each alert must arrive within its {@code for:} (1 min) plus one minute
 * and be the only new notification of that failure (one page, not two: nothing else may fire
 * for it, e.g. ReplicaNotReplicating while the replica is down).
 * Timings: scrape and evaluation every 5 s, group_wait 10 s, group_interval 30 s
 * (grafana/prometheus/prometheus.yml, infra/templates/alertmanager.yml).
 */
class AlertsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration FOR = Duration.ofMinutes(1);
    private static final Duration FIRE_WITHIN = FOR.plusMinutes(1);
    private static final Duration RESOLVE_WITHIN = Duration.ofMinutes(2);
    private static final Path RECEIVED = Path.of(Stack.get("VAR"), "alerts", "received.jsonl");

    @Test
    void aStoppedCacheShardFiresCacheShardDownAndResolvesWhenItIsBack() {
        drill("redis-shard2", "CacheShardDown", "ticket", Map.of("role", "cache", "shard", "2"));
    }

    @Test
    void aStoppedAuthRedisPagesAuthRedisDownAndResolvesWhenItIsBack() {
        drill("redis-auth", "AuthRedisDown", "page", Map.of("role", "auth"));
    }

    @Test
    void aStoppedReplicaPagesReplicaDownOnceAndResolvesWhenItIsBack() {
        drill("mariadb-replica", "ReplicaDown", "page", Map.of("role", "replica"));
    }

    private static void drill(String component, String alert, String receiver, Map<String, String> labels) {
        awaitNotFiring(alert, labels); // an earlier test's outage may still be resolving
        Set<String> firingBefore = firingNow();
        long from = lines().size();
        Stack.infra("ctl.sh", "stop", component);
        Duration fired;
        try {
            fired = Eventually.within(FIRE_WITHIN, alert + " firing at the '" + receiver + "' receiver",
                    () -> !matching(from, alert, labels, "firing", receiver).isEmpty());
        } finally {
            Stack.infra("ctl.sh", "start", component);
        }
        Duration resolved = Eventually.within(RESOLVE_WITHIN, alert + " resolved at the '" + receiver + "' receiver",
                () -> !matching(from, alert, labels, "resolved", receiver).isEmpty());
        System.out.printf("AlertsIT: %s stopped -> %s firing after %d s; started -> resolved after %d s%n",
                component, alert, fired.toSeconds(), resolved.toSeconds());

        // One notification per failure: no other alert began firing during this outage.
        Set<String> others = new TreeSet<>();
        for (JsonNode a : alerts(from)) {
            String name = a.path("alertname").asString();
            if ("firing".equals(a.path("status").asString()) && !name.equals(alert) && !"Watchdog".equals(name)
                    && !firingBefore.contains(name)) {
                others.add(name + a.path("labels"));
            }
        }
        assertThat(others).as("other alerts delivered while " + component + " was down").isEmpty();
    }

    private static void awaitNotFiring(String alert, Map<String, String> labels) {
        Eventually.within(RESOLVE_WITHIN.plusMinutes(1), alert + " not firing before the drill",
                () -> lastStatus(alert, labels) == null || "resolved".equals(lastStatus(alert, labels)));
    }

    /** Alert names the receiver last saw firing (not yet resolved), whatever the component. */
    private static Set<String> firingNow() {
        Map<String, String> last = new java.util.HashMap<>();
        for (JsonNode a : alerts(0)) {
            last.put(a.path("alertname").asString() + a.path("labels"), a.path("status").asString());
        }
        Set<String> names = new TreeSet<>();
        last.forEach((key, status) -> {
            if ("firing".equals(status)) {
                names.add(key.substring(0, key.indexOf('{')));
            }
        });
        return names;
    }

    private static String lastStatus(String alert, Map<String, String> labels) {
        String status = null;
        for (JsonNode a : alerts(0)) {
            if (alert.equals(a.path("alertname").asString()) && has(a, labels)) {
                status = a.path("status").asString();
            }
        }
        return status;
    }

    private static List<JsonNode> matching(long from, String alert, Map<String, String> labels, String status, String receiver) {
        List<JsonNode> found = new ArrayList<>();
        List<String> lines = lines();
        for (int i = (int) from; i < lines.size(); i++) {
            JsonNode delivery = JSON.readTree(lines.get(i));
            if (!receiver.equals(delivery.path("receiver").asString())) {
                continue;
            }
            for (JsonNode a : delivery.path("alerts")) {
                if (alert.equals(a.path("alertname").asString()) && status.equals(a.path("status").asString()) && has(a, labels)) {
                    found.add(a);
                }
            }
        }
        return found;
    }

    private static List<JsonNode> alerts(long from) {
        List<JsonNode> all = new ArrayList<>();
        List<String> lines = lines();
        for (int i = (int) from; i < lines.size(); i++) {
            JSON.readTree(lines.get(i)).path("alerts").forEach(all::add);
        }
        return all;
    }

    private static boolean has(JsonNode alert, Map<String, String> labels) {
        return labels.entrySet().stream().allMatch(e -> e.getValue().equals(alert.path("labels").path(e.getKey()).asString()));
    }

    private static List<String> lines() {
        try {
            if (!Files.exists(RECEIVED)) {
                return List.of();
            }
            // Only complete lines: the receiver may be appending one right now.
            String text = Files.readString(RECEIVED, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            return end < 0 ? List.of() : text.substring(0, end).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
