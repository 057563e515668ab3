package dev.hanwiki.platform;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Two Hikari pools named {@code primary} and {@code replica} (the names become the
 * {@code pool} tag of the hikaricp_* metrics). Pools start on first use, so a replica that is
 * down at start-up does not stop the node from starting; health and readiness report it
 * instead. Starting lazily also leaves the pools unsealed until Boot has attached the metrics
 * tracker. Transactions always run on the primary.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean(destroyMethod = "close")
    @Primary
    @PrimaryDatabase
    HikariDataSource primaryDataSource(DataSourceSettings settings) {
        return pool("primary", settings.primary(), false);
    }

    @Bean(destroyMethod = "close")
    @ReplicaDatabase
    HikariDataSource replicaDataSource(DataSourceSettings settings) {
        return pool("replica", settings.replica(), true);
    }

    @Bean
    @PrimaryDatabase
    @DependsOnDatabaseInitialization
    JdbcClient primaryJdbcClient(@PrimaryDatabase DataSource dataSource) {
        return JdbcClient.create(dataSource);
    }

    @Bean
    @ReplicaDatabase
    @DependsOnDatabaseInitialization
    JdbcClient replicaJdbcClient(@ReplicaDatabase DataSource dataSource) {
        return JdbcClient.create(dataSource);
    }

    @Bean
    PlatformTransactionManager transactionManager(@PrimaryDatabase DataSource dataSource) {
        return new JdbcTransactionManager(dataSource);
    }

    private static HikariDataSource pool(String name, DataSourceSettings.Pool settings, boolean readOnly) {
        // The no-argument constructor defers pool start to the first getConnection().
        HikariDataSource pool = new HikariDataSource();
        pool.setPoolName(name);
        pool.setJdbcUrl(settings.url());
        pool.setUsername(settings.username());
        pool.setPassword(settings.password());
        pool.setMaximumPoolSize(settings.maximumPoolSize());
        pool.setConnectionTimeout(settings.connectionTimeout().toMillis());
        pool.setLeakDetectionThreshold(settings.leakDetectionThreshold().toMillis());
        pool.setReadOnly(readOnly);
        // Connector/J waits for a TCP connect as long as the OS does (minutes to an unreachable
        // host; the MariaDB driver stopped at 30 s): a pool thread must not hang on a partitioned
        // database for longer than a caller waits for a connection.
        pool.addDataSourceProperty("connectTimeout", settings.connectionTimeout().toMillis());
        pool.addDataSourceProperty("socketTimeout", settings.socketTimeout().toMillis());
        // Never fail on the first connection attempt: an unreachable database must surface as
        // a (mappable) timeout per call, not as an exception that leaves the pool unstarted.
        pool.setInitializationFailTimeout(-1);
        return pool;
    }
}
