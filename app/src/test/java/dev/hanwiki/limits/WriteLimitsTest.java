package dev.hanwiki.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WriteLimitsTest {

    @Test
    void eachLimitedWriteIsRecognisedByItsRoute() {
        assertThat(WriteLimits.actionOf("POST", "/api/v1.0/posts")).contains(WriteAction.POST);
        assertThat(WriteLimits.actionOf("PUT", "/api/v1.0/posts/{id}")).contains(WriteAction.EDIT);
        assertThat(WriteLimits.actionOf("DELETE", "/api/v1.0/posts/{id}")).contains(WriteAction.DELETE);
        assertThat(WriteLimits.actionOf("POST", "/api/v1.0/posts/{id}/like")).contains(WriteAction.LIKE);
        assertThat(WriteLimits.actionOf("DELETE", "/api/v1/posts/{id}/like")).contains(WriteAction.LIKE);
    }

    @Test
    void readsAndAccountCallsAreNotWriteLimited() {
        assertThat(WriteLimits.actionOf("GET", "/api/v1.0/posts/{id}")).isEmpty();
        assertThat(WriteLimits.actionOf("GET", "/api/v1.0/posts")).isEmpty();
        assertThat(WriteLimits.actionOf("POST", "/api/v1.0/auth/login")).isEmpty();
        assertThat(WriteLimits.actionOf("POST", null)).isEqualTo(Optional.empty());
    }

    @Test
    void theDocumentedDefaultsAreWhatTheSettingsSay() {
        LimitSettings.Writes writes = new LimitSettings.Writes(true, 30, Duration.ofSeconds(60), 60, Duration.ofSeconds(10),
                100, Duration.ofSeconds(1), 30, Duration.ofSeconds(60));
        assertThat(writes.of(WriteAction.POST).perHour()).isEqualTo(60);
        assertThat(writes.of(WriteAction.EDIT).perHour()).isEqualTo(360);
        assertThat(writes.of(WriteAction.LIKE).perHour()).isEqualTo(3600);
    }
}
