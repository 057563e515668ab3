package dev.hanwiki.post;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** A HEAD of a page reads its headers only: nobody viewed it (ADR 0088). */
class HeadRequestViewTest {

    private final DriverManagerDataSource unreachable =
            new DriverManagerDataSource("jdbc:mariadb://127.0.0.1:1/hanwiki?connectTimeout=200");
    private final ViewCounter views = new ViewCounter(unreachable, new JdbcTransactionManager(unreachable),
            new ViewSettings(Duration.ofHours(1), 100, 2));

    @AfterEach
    void clear() {
        RequestContextHolder.resetRequestAttributes();
    }

    @Test
    void aHeadRequestCountsNoViewAndAGetDoes() {
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest("HEAD", "/api/v1.0/posts/7")));
        views.record(7);
        assertThat(views.unflushed(7)).isZero();

        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest("GET", "/api/v1.0/posts/7")));
        views.record(7);
        assertThat(views.unflushed(7)).isEqualTo(1);
    }
}
