package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

class CdcSettingsTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(CdcSettings.class)
    static class Settings {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Settings.class)
            .withPropertyValues(
                    "hanwiki.cdc.bootstrap-servers=127.0.0.1:19092",
                    "hanwiki.cdc.posts-topic=hanwiki.hanwiki.posts",
                    "hanwiki.cdc.group-id=hanwiki-indexer-node1");

    @Test
    void bindsWithDefaultsAndBuildsAConsumerThatNeverAutoCommitsOrCreatesTopics() {
        runner.run(context -> {
            CdcSettings settings = context.getBean(CdcSettings.class);
            assertThat(settings.pollTimeout()).isEqualTo(Duration.ofMillis(100));
            assertThat(settings.commitInterval()).isEqualTo(Duration.ofSeconds(1));
            assertThat(settings.consumerConfig("node1"))
                    .containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "hanwiki-indexer-node1")
                    .containsEntry(ConsumerConfig.CLIENT_ID_CONFIG, "hanwiki-indexer-node1")
                    .containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)
                    .containsEntry(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        });
    }

    @Test
    void bootstrapServersWithoutPortFailStartUp() {
        runner.withPropertyValues("hanwiki.cdc.bootstrap-servers=localhost").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("bootstrapServers"));
    }

    @Test
    void blankGroupIdFailsStartUp() {
        runner.withPropertyValues("hanwiki.cdc.group-id= ").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("groupId"));
    }

    @Test
    void pollTimeoutOutsideItsBoundsFailsStartUp() {
        runner.withPropertyValues("hanwiki.cdc.poll-timeout=1m").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("pollTimeout"));
    }

    @Test
    void analysisThreadsDefaultToTheNodesCoresAndStayWithinBounds() {
        runner.run(context -> assertThat(context.getBean(CdcSettings.class).analysisThreads())
                .isEqualTo(Math.min(CdcSettings.MAX_ANALYSIS_THREADS, Runtime.getRuntime().availableProcessors())));
        runner.withPropertyValues("hanwiki.cdc.analysis-threads=1").run(context ->
                assertThat(context.getBean(CdcSettings.class).analysisThreads()).isEqualTo(1));
        runner.withPropertyValues("hanwiki.cdc.analysis-threads=0").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("analysisThreads"));
        runner.withPropertyValues("hanwiki.cdc.analysis-threads=17").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("analysisThreads"));
    }
}
