package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Bad configuration must stop the node at start-up, not surface on the first request. */
class SettingsValidationTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({NodeSettings.class, DataSourceSettings.class})
    static class Settings {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Settings.class)
            .withPropertyValues(
                    "hanwiki.node.id=node1",
                    "hanwiki.datasource.primary.url=jdbc:mysql://127.0.0.1:13306/hanwiki",
                    "hanwiki.datasource.primary.username=hanwiki_app",
                    "hanwiki.datasource.replica.url=jdbc:mysql://127.0.0.1:13307/hanwiki",
                    "hanwiki.datasource.replica.username=hanwiki_ro");

    @Test
    void validSettingsBindWithDefaults() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            DataSourceSettings settings = context.getBean(DataSourceSettings.class);
            assertThat(settings.primary().maximumPoolSize()).isEqualTo(70);
            assertThat(settings.primary().connectionTimeout()).hasMillis(500);
            assertThat(settings.replica().url()).endsWith(":13307/hanwiki");
            assertThat(context.getBean(NodeSettings.class).id()).isEqualTo("node1");
        });
    }

    @Test
    void nodeIdThatIsNotLabelSafeFailsStartUp() {
        runner.withPropertyValues("hanwiki.node.id=node 1; rm -rf").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("hanwiki.node.id"));
    }

    @Test
    void missingReplicaUrlFailsStartUp() {
        runner.withPropertyValues("hanwiki.datasource.replica.url=").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("replica.url"));
    }

    @Test
    void nonJdbcUrlFailsStartUp() {
        runner.withPropertyValues("hanwiki.datasource.primary.url=http://127.0.0.1:13306").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("primary.url"));
    }

    @Test
    void mariadbDriverUrlFailsStartUp() {
        // Connector/J is the one driver on the classpath (ADR 0062): a jdbc:mariadb URL left in an
        // old config must stop the node at start-up, not fail every query later.
        runner.withPropertyValues("hanwiki.datasource.primary.url=jdbc:mariadb://127.0.0.1:13306/hanwiki").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("primary.url"));
    }

    @Test
    void passwordNeverAppearsInTheSettingsText() {
        runner.withPropertyValues("hanwiki.datasource.primary.password=s3cret").run(context ->
                assertThat(context.getBean(DataSourceSettings.class).toString()).doesNotContain("s3cret"));
    }
}
