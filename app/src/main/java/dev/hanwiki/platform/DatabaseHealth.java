package dev.hanwiki.platform;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Health of the two databases, replacing Boot's {@code db} contributor, which would judge both
 * pools alike. {@code primaryDatabase} answers a query or is DOWN; it is part of readiness.
 * {@code replica} reports the routing decision ({@link ReplicaMonitor}); it is DOWN while reads
 * go to the primary, but it is deliberately not part of readiness: a node whose replica is gone
 * still answers every read.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseHealth {

    @Bean
    HealthIndicator primaryDatabaseHealthIndicator(@PrimaryDatabase JdbcClient primary) {
        return () -> {
            try {
                primary.sql("SELECT 1").query(Integer.class).single();
                return Health.up().build();
            } catch (DataAccessException e) {
                return Health.down().withDetail("error", ReplicaMonitor.rootMessage(e)).build();
            }
        };
    }

    @Bean
    HealthIndicator replicaHealthIndicator(ReplicaMonitor monitor) {
        return () -> {
            ReplicaMonitor.Status status = monitor.status();
            Health.Builder health = status.readsOnReplica() ? Health.up() : Health.down();
            health.withDetail("state", status.state().name())
                    .withDetail("readsFrom", status.readsOnReplica() ? "replica" : "primary")
                    .withDetail("reason", status.reason());
            if (status.lastLag() != null) {
                health.withDetail("lastLagMillis", status.lastLag().toMillis());
            }
            return health.build();
        };
    }
}
