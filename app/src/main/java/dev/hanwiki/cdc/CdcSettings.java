package dev.hanwiki.cdc;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.cdc.*}: where the posts change stream lives and how this node consumes it.
 * Each node uses its own {@code group-id}: every node must see every event.
 *
 * @param pollTimeout    longest a poll waits for events; bounds added latency when idle
 * @param batchInterval  shortest time between two polls that found changes: under a steady
 *                       stream the changes of this long are applied, refreshed and announced
 *                       together (one NRT refresh, one tiny segment, one round of listeners per
 *                       interval instead of per arrival; issue 14, write cost). A change that
 *                       arrives after a quiet spell is applied at once; 0 turns it off
 * @param commitInterval most frequent durable index commit (commits are fsyncs, not free)
 * @param retryBackoff   pause before retrying after Kafka or the topic is unavailable
 * @param metadataTimeout longest wait for topic metadata or end offsets before retrying
 * @param tombstoneRetention how long a delete's version tombstone stays in the index after the
 *                       node applied it (ADR 0040): the longest an older upsert of that post may
 *                       arrive late and still be refused. Swept every tenth of it (at most hourly)
 * @param indexerNiceness the nice value of the indexer's work while it catches up in bulk (a rebuild,
 *                       a re-snapshot, a bulk load): above 0 it yields the cores to requests when
 *                       the machine is full, and still uses every idle cycle (ADR 0093, fourth
 *                       amendment); 0 keeps normal priority. Following the stream always does
 * @param analysisThreads how many threads analyse the pages of a batch's upserts (Nori, most of an
 *                       upsert's cost) before the indexer thread applies the batch in order (ADR
 *                       0097); at the indexer's priority: while it catches up, at
 *                       {@code indexer-niceness}. Default: the node's cores (at most
 *                       {@value #MAX_ANALYSIS_THREADS}); 1: the indexer thread analyses each page
 *                       itself, as it writes it
 * @param username       the node's Kafka SASL/SCRAM user (null with the password: no SASL)
 * @param password       its password; never logged
 */
@Validated
@ConfigurationProperties("hanwiki.cdc")
record CdcSettings(
        @NotBlank @Pattern(regexp = "[^,\\s]+:\\d{1,5}(,[^,\\s]+:\\d{1,5})*") String bootstrapServers,
        @NotBlank String postsTopic,
        @NotBlank String groupId,
        @NotNull @DefaultValue("100ms") @DurationMin(millis = 10) @DurationMax(seconds = 5) Duration pollTimeout,
        @NotNull @DefaultValue("100ms") @DurationMin(millis = 0) @DurationMax(seconds = 1) Duration batchInterval,
        @NotNull @DefaultValue("1s") @DurationMin(millis = 100) @DurationMax(minutes = 5) Duration commitInterval,
        @NotNull @DefaultValue("2s") @DurationMin(millis = 100) @DurationMax(minutes = 5) Duration retryBackoff,
        @NotNull @DefaultValue("5s") @DurationMin(millis = 100) @DurationMax(minutes = 1) Duration metadataTimeout,
        @NotNull @DefaultValue("24h") @DurationMin(minutes = 1) @DurationMax(days = 30) Duration tombstoneRetention,
        @DefaultValue("10") @Min(0) @Max(19) int indexerNiceness,
        @Min(1) @Max(MAX_ANALYSIS_THREADS) Integer analysisThreads,
        String username,
        String password) {

    /** Most records one poll hands over; a poll that returns this many found a backlog. */
    static final int MAX_POLL_RECORDS = 500;
    static final int MAX_ANALYSIS_THREADS = 16;

    CdcSettings {
        if (analysisThreads == null) {
            analysisThreads = Math.min(MAX_ANALYSIS_THREADS, Runtime.getRuntime().availableProcessors());
        }
    }


    /**
     * How every Kafka client of this node authenticates: SASL/SCRAM-SHA-512 over the hosts'
     * network when credentials are set (the broker refuses anonymous clients), else none.
     */
    Map<String, Object> securityConfig() {
        if (password == null || password.isEmpty()) {
            return Map.of();
        }
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + username + "\" password=\"" + password + "\";");
    }

    @Override
    public String toString() {
        return "CdcSettings[bootstrapServers=" + bootstrapServers + ", postsTopic=" + postsTopic + ", groupId=" + groupId
                + ", username=" + username + ", password=" + (password == null ? "none" : "(hidden)") + "]";
    }

    /** How often expired tombstones are purged: a tenth of the retention, at most hourly. */
    Duration tombstoneSweepInterval() {
        Duration tenth = tombstoneRetention.dividedBy(10);
        return tenth.compareTo(Duration.ofHours(1)) > 0 ? Duration.ofHours(1) : tenth;
    }

    /** Client configuration of the indexer's consumer on node {@code nodeId}. */
    Map<String, Object> consumerConfig(String nodeId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.putAll(securityConfig());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "hanwiki-indexer-" + nodeId);
        // Resume positions live in the Lucene commit; Kafka's copy is written for monitoring only.
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // Offsets out of range (topic recreated, retention) mean replaying all: safe, versions guard it.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // The connector must create the topic with its settings; a consumer must never auto-create it.
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        // While Kafka is down the client logs each failed reconnect; back off to one try per 5 s.
        config.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 5_000);
        // A fetch sent while the broker's host was cut off sits in TCP retransmission backoff
        // long after the link is back: give up on it after 10 s (default 30) and reconnect.
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return config;
    }
}
