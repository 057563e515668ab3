package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every query of every dashboard panel (grafana/dashboards/*.json) answers with data from the
 * running stack's Prometheus, except the panels grafana/empty-by-design.json names
 * with the reason they are empty on a healthy stack. A renamed metric or a typo in a panel
 * fails here, not in front of an operator. The check is infra/monitoring/dashboards.py --check
 * (also what `make dashboards` renders).
 */
class DashboardsIT {

    @Test
    void everyPanelQueryAnswersWithDataOnAHealthyStack() {
        // Rates need two scrapes (5 s apart) of a freshly started process: allow a short wait.
        Stack.Run[] last = new Stack.Run[1];
        try {
            Eventually.within(Duration.ofSeconds(60), "every dashboard query answers with data", () -> {
                last[0] = Stack.run(List.of("/usr/bin/python3", Stack.ROOT.resolve("infra/monitoring/dashboards.py").toString(), "--check"));
                return last[0].exitCode() == 0;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + last[0].output(), e);
        }
        assertThat(last[0].output()).contains("0 problems");
    }
}
