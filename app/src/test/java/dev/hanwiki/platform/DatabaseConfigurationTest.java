package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DatabaseConfigurationTest {

    private static DataSourceSettings.Pool pool(Duration connectionTimeout) {
        return pool(connectionTimeout, Duration.ZERO);
    }

    private static DataSourceSettings.Pool pool(Duration connectionTimeout, Duration socketTimeout) {
        return new DataSourceSettings.Pool("jdbc:mysql://127.0.0.1:1/hanwiki", "u", "p", 2, connectionTimeout,
                Duration.ofSeconds(20), socketTimeout);
    }

    @Test
    void driverConnectTimeoutFollowsThePoolsConnectionTimeout() {
        // Connector/J's own default is the OS's TCP connect timeout (minutes to an unreachable host).
        var settings = new DataSourceSettings(pool(Duration.ofMillis(1500)), pool(Duration.ofSeconds(3)), Duration.ofSeconds(2));
        var config = new DatabaseConfiguration();
        try (HikariDataSource primary = config.primaryDataSource(settings);
             HikariDataSource replica = config.replicaDataSource(settings)) {
            assertThat(primary.getJdbcUrl()).contains("?").contains("connectTimeout=1500");
            assertThat(replica.getJdbcUrl()).contains("connectTimeout=3000");
            assertThat(replica.isReadOnly()).isTrue();
        }
    }

    @Test
    void driverSocketTimeoutIsThePoolsOwnSoAHungReplicaCostsAReadOneSecondNotMinutes() {
        var settings = new DataSourceSettings(pool(Duration.ofMillis(500)), pool(Duration.ofMillis(500), Duration.ofSeconds(1)), Duration.ofSeconds(2));
        var config = new DatabaseConfiguration();
        try (HikariDataSource primary = config.primaryDataSource(settings);
             HikariDataSource replica = config.replicaDataSource(settings)) {
            assertThat(replica.getJdbcUrl()).contains("socketTimeout=1000");
            // 0 is Connector/J's "no timeout": a write is never cut off while it may commit.
            assertThat(primary.getJdbcUrl()).contains("socketTimeout=0");
            // the idle-connection check (a ping) of both pools gives up after 250 ms, not Hikari's 5 s
            assertThat(replica.getValidationTimeout()).isEqualTo(250L);
            assertThat(primary.getValidationTimeout()).isEqualTo(250L);
            // (a test query: isValid's own timeout is whole seconds)
            assertThat(replica.getConnectionTestQuery()).startsWith("/* ping */");
        }
    }

    @Test
    void aTimeoutTheUrlNamesItselfIsKept() {
        var pool = new DataSourceSettings.Pool("jdbc:mysql://127.0.0.1:1/hanwiki?sslMode=REQUIRED&socketTimeout=2000", "u", "p", 2,
                Duration.ofMillis(500), Duration.ofSeconds(20), Duration.ofSeconds(1));
        assertThat(DatabaseConfiguration.withTimeouts(pool))
                .isEqualTo("jdbc:mysql://127.0.0.1:1/hanwiki?sslMode=REQUIRED&socketTimeout=2000&connectTimeout=500");
    }
}
