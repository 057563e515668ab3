package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Every Redis client re-dials a lost server every half second, however many attempts failed. */
class RedisClientsTest {

    @Test
    void theReconnectDelayNeverBacksOff() {
        ClientResources resources = RedisClients.resources(1);
        try {
            for (long attempt : new long[] {1, 5, 15, 30}) {
                assertThat(resources.reconnectDelay().createDelay(attempt)).as("attempt " + attempt)
                        .isEqualTo(Duration.ofMillis(500));
            }
        } finally {
            resources.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }
}
