package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeAgeTest {

    private final ChangeAge age = new ChangeAge(PostChangeConsumer.CATCH_UP_QUIET);

    @Test
    void theAgeIsTheNewestFreshChangeOfTheLastBatchAndBatchesWithoutOneKeepIt() {
        age.polled(3, 10_000);
        age.applied(List.of(1_000L, 4_000L, 2_500L), 10_000);
        assertThat(age.millis()).isEqualTo(6_000);

        age.polled(2, 10_100);
        age.applied(List.of(), 10_100); // likes, view flushes: no write time
        assertThat(age.millis()).isEqualTo(6_000);
    }

    @Test
    void aStreamQuietForLongerThanTheQuietTimeHasNothingPending() {
        age.polled(1, 10_000);
        age.applied(List.of(2_000L), 10_000);

        age.polled(0, 10_000 + PostChangeConsumer.CATCH_UP_QUIET.toMillis() - 1);
        assertThat(age.millis()).as("a pause between two bursts").isEqualTo(8_000);
        age.polled(0, 10_000 + PostChangeConsumer.CATCH_UP_QUIET.toMillis());
        assertThat(age.millis()).isZero();
    }

    @Test
    void anEmptyFirstPollMeansNothingPending() {
        age.polled(0, 10_000);
        assertThat(age.millis()).isZero();
    }

    /**
     * After a Kafka outage Connect drains the binlog's backlog in bursts a second or two apart,
     * each of changes made a minute ago, with empty polls between them, until it reaches the
     * fresh writes. The indexer catches up all along and follows again once the fresh ones come.
     */
    @Test
    void aBacklogDrainedInBurstsIsOneSpellOfCatchingUp() {
        List<Boolean> modes = new ArrayList<>();
        boolean catchingUp = false;
        long now = 100_000;
        long writtenAt = now - 60_000; // the backlog's first change, a minute old
        for (int burst = 0; burst < 30; burst++) {
            age.polled(50, now);
            List<Long> changedAt = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                changedAt.add(writtenAt += 40); // the backlog closes in on the present
            }
            age.applied(changedAt, now);
            catchingUp = PostChangeConsumer.catchingUp(catchingUp, 20, age.millis());
            modes.add(catchingUp);
            for (int idle = 0; idle < 15; idle++) { // 1.5 s of empty 100 ms polls before the next burst
                now += 100;
                age.polled(0, now);
                catchingUp = PostChangeConsumer.catchingUp(catchingUp, 0, age.millis());
                modes.add(catchingUp);
            }
        }
        assertThat(modes).as("catching up after each poll").containsOnly(true);

        // Fresh writes again: back to following.
        age.polled(1, now);
        age.applied(List.of(now - 300), now);
        catchingUp = PostChangeConsumer.catchingUp(catchingUp, 0, age.millis());
        assertThat(catchingUp).isFalse();
    }
}
