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
        var settings = new DataSourceSettings(pool(Duration.ofMillis(1500)), pool(Duration.ofSeconds(3)));
        var config = new DatabaseConfiguration();
        try (HikariDataSource primary = config.primaryDataSource(settings);
             HikariDataSource replica = config.replicaDataSource(settings)) {
            assertThat(primary.getDataSourceProperties()).containsEntry("connectTimeout", 1500L);
            assertThat(replica.getDataSourceProperties()).containsEntry("connectTimeout", 3000L);
            assertThat(replica.isReadOnly()).isTrue();
        }
    }

    @Test
    void driverSocketTimeoutIsThePoolsOwnSoAHungReplicaCostsAReadOneSecondNotMinutes() {
        var settings = new DataSourceSettings(pool(Duration.ofMillis(500)), pool(Duration.ofMillis(500), Duration.ofSeconds(1)));
        var config = new DatabaseConfiguration();
        try (HikariDataSource primary = config.primaryDataSource(settings);
             HikariDataSource replica = config.replicaDataSource(settings)) {
            assertThat(replica.getDataSourceProperties()).containsEntry("socketTimeout", 1000L);
            // 0 is Connector/J's "no timeout": a write is never cut off while it may commit.
            assertThat(primary.getDataSourceProperties()).containsEntry("socketTimeout", 0L);
        }
    }
}
