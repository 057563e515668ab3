package dev.hanwiki.platform;

import com.zaxxer.hikari.HikariDataSource;
import java.util.List;
import java.util.Map;
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

    static final Map<String, String> DRIVER_PROPERTIES = Map.of(
            "cachePrepStmts", "true",
            "prepStmtCacheSize", "250",
            "prepStmtCacheSqlLimit", "2048",
            "cacheResultSetMetadata", "true",
            "cacheServerConfiguration", "true",
            "useLocalSessionState", "true");

    static HikariDataSource pool(String name, DataSourceSettings.Pool settings, boolean readOnly) {
        // The no-argument constructor defers pool start to the first getConnection().
        HikariDataSource pool = new HikariDataSource();
        pool.setPoolName(name);
        pool.setJdbcUrl(withTimeouts(settings));
        pool.setUsername(settings.username());
        pool.setPassword(settings.password());
        pool.setMaximumPoolSize(settings.maximumPoolSize());
        pool.setConnectionTimeout(settings.connectionTimeout().toMillis());
        pool.setLeakDetectionThreshold(settings.leakDetectionThreshold().toMillis());
        pool.setReadOnly(readOnly);
        // Hikari checks a connection that sat idle before handing it out. By default with
        // JDBC's isValid, which cannot wait less than a whole second, under a 5 s validation
        // timeout: against a host that hangs or was cut off, every request borrowing a
        // connection waited that long (HostTopologyIT, thread dumps). A test query under the
        // network timeout waits 250 ms (Hikari's minimum); Connector/J answers a query starting
        // with "/* ping */" with a protocol ping, as cheap as isValid.
        pool.setValidationTimeout(250);
        pool.setConnectionTestQuery("/* ping */ SELECT 1");
        // Never fail on the first connection attempt: an unreachable database must surface as
        // a (mappable) timeout per call, not as an exception that leaves the pool unstarted.
        pool.setInitializationFailTimeout(-1);
        // Connector/J's work per statement (issue 14, write cost: preparing statements was a
        // twentieth of a create's request CPU in a JFR profile): keep each connection's parsed
        // statements and result-set metadata instead of parsing every call again, and answer
        // setAutoCommit and the like from the state the driver tracks instead of sending
        // SET autocommit around every transaction (HikariCP's recommended MySQL settings, less
        // server-side prepared statements, which add a round trip to each first use).
        for (var property : DRIVER_PROPERTIES.entrySet()) {
            pool.addDataSourceProperty(property.getKey(), property.getValue());
        }
        return pool;
    }

    /**
     * The URL with Connector/J's connect and socket timeouts, unless it names them itself. In
     * the URL, not as data source properties: given as properties they did not bound a query to
     * a cut-off replica (thread dumps showed untimed socket reads), in the URL they do.
     * <ul>
     *   <li>connectTimeout: Connector/J waits for a TCP connect as long as the OS does (minutes
     *       to an unreachable host): a pool thread must not hang on a partitioned database for
     *       longer than a caller waits for a connection.</li>
     *   <li>socketTimeout: see {@link DataSourceSettings.Pool} (0: none).</li>
     * </ul>
     */
    static String withTimeouts(DataSourceSettings.Pool settings) {
        StringBuilder url = new StringBuilder(settings.url());
        for (var timeout : List.of(Map.entry("connectTimeout", settings.connectionTimeout()),
                Map.entry("socketTimeout", settings.socketTimeout()))) {
            if (!settings.url().contains(timeout.getKey() + "=")) {
                url.append(url.indexOf("?") < 0 ? '?' : '&').append(timeout.getKey()).append('=')
                        .append(timeout.getValue().toMillis());
            }
        }
        return url.toString();
    }
}
