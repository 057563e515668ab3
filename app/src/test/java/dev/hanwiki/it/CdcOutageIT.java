package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The change pipeline breaks under writes and comes back: nothing acknowledged is lost and
 * every node converges to the primary, without help.
 */
class CdcOutageIT {

    @Test
    void connectKilledMidStreamResumesAndEveryNodeConverges() throws Exception {
        BackgroundWriter writer = new BackgroundWriter(Search.uniqueWord(), 30);
        try (var restore = Stack.restoreOnExit("connect"); writer) {
            writer.awaitMore(20, Duration.ofSeconds(10));
            Stack.infra("ctl.sh", "kill", "connect");
            writer.awaitMore(60, Duration.ofSeconds(20));
            Stack.infra("ctl.sh", "start", "connect");
            writer.awaitMore(20, Duration.ofSeconds(10));
        }
        assertThat(writer.refused()).as("writes do not depend on Connect; last refusal: " + writer.lastRefusal()).isZero();
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(30));
    }

    @Test
    void brokerStoppedForThirtySecondsThenEveryNodeConverges() throws Exception {
        BackgroundWriter writer = new BackgroundWriter(Search.uniqueWord(), 30);
        try (var restore = Stack.restoreOnExit("kafka", "connect"); writer) {
            writer.awaitMore(20, Duration.ofSeconds(10));
            Stack.infra("ctl.sh", "stop", "kafka");
            Thread.sleep(30_000);
            // Reads keep working from the nodes' own indexes while Kafka is away.
            assertThat(Http.get(Stack.api() + "/posts/search?q=" + Http.enc("서울")).status()).isEqualTo(200);
            Stack.infra("ctl.sh", "start", "kafka");
            writer.awaitMore(20, Duration.ofSeconds(10));
        }
        assertThat(writer.refused()).as("writes do not depend on Kafka; last refusal: " + writer.lastRefusal()).isZero();
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(30));
    }

    @Test
    void aSchemaChangeWhileStreamingDoesNotStopIndexing() throws Exception {
        String column = "it_" + Search.uniqueWord().substring(2, 10);
        BackgroundWriter writer = new BackgroundWriter(Search.uniqueWord(), 30);
        try (writer) {
            writer.awaitMore(20, Duration.ofSeconds(10));
            try (var c = Stack.primaryAsMigrator(); var st = c.createStatement()) {
                st.execute("ALTER TABLE posts ADD COLUMN " + column + " VARCHAR(20) NULL");
                writer.awaitMore(20, Duration.ofSeconds(10));
                st.execute("UPDATE posts SET " + column + " = 'x', version = version + 1, updated_at = UTC_TIMESTAMP(6) "
                        + "WHERE id = " + writer.acknowledged().getFirst());
                st.execute("ALTER TABLE posts DROP COLUMN " + column);
            }
            writer.awaitMore(20, Duration.ofSeconds(10));
        }
        assertThat(writer.refused()).as("last refusal: " + writer.lastRefusal()).isZero();
        Search.assertEveryNodeConverges(writer.acknowledged(), Duration.ofSeconds(30));
    }
}
