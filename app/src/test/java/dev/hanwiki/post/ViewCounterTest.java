package dev.hanwiki.post;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;

/** The flush path against a primary that refuses connections: counts must survive the failure. */
class ViewCounterTest {

    private final DriverManagerDataSource unreachable =
            new DriverManagerDataSource("jdbc:mysql://127.0.0.1:1/hanwiki?connectTimeout=200");
    private final ViewCounter views = new ViewCounter(unreachable, new JdbcTransactionManager(unreachable),
            new ViewSettings(Duration.ofHours(1), 100, 2));

    @Test
    void aFailedFlushKeepsEveryViewForTheNextOne() {
        for (long post = 1; post <= 5; post++) {
            views.record(post);
            views.record(post);
        }

        assertThat(views.flush()).isZero();

        for (long post = 1; post <= 5; post++) {
            assertThat(views.unflushed(post)).as("post %d", post).isEqualTo(2);
        }
    }

    @Test
    void stoppingTriesOneLastFlushAndKeepsWhatItCouldNotWrite() {
        views.start();
        views.record(42);

        views.stop();

        assertThat(views.isRunning()).isFalse();
        assertThat(views.unflushed(42)).isEqualTo(1);
    }

    @Test
    void itStopsAfterTheWebServerHasDrainedItsRequests() {
        // The web server's graceful shutdown runs in phases just below Integer.MAX_VALUE;
        // lifecycles stop from the highest phase down.
        assertThat(views.getPhase()).isLessThan(Integer.MAX_VALUE - 2048);
    }
}
