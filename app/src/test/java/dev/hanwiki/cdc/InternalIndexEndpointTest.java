package dev.hanwiki.cdc;

import static dev.hanwiki.cdc.DebeziumEvents.key;
import static dev.hanwiki.cdc.DebeziumEvents.record;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.hanwiki.WebLayerSlice;
import dev.hanwiki.search.PostIndex;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.test.json.JsonCompareMode;
import tools.jackson.databind.json.JsonMapper;

/** The per-node inspection endpoints that operators and the integration tests rely on. */
@WebMvcTest(controllers = InternalIndexController.class,
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX,
                pattern = "dev\\.hanwiki\\.(search\\.(SearchConfiguration|SearchSettings)|cdc\\.(IndexerProgress|CdcSettings)|platform\\.(NodeSettings|WebSettings|ClientAddresses|ExposureSettings))"))
class InternalIndexEndpointTest extends WebLayerSlice {

    @Autowired
    PostIndex index;

    @Autowired
    IndexerProgress progress;

    @Test
    void idsListsLiveDocumentsInIdOrderAsThePlainData() throws Exception {
        new PostChangeApplier(index, new PostChangeParser(JsonMapper.builder().build()), (poison, reason) -> { }, java.time.Clock.systemUTC()).apply(List.of(
                record(0, key(9), DebeziumEvents.created(9, "nine", "x")),
                record(1, key(2), DebeziumEvents.updated(2, "two", "x", 3)),
                record(2, key(5), DebeziumEvents.created(5, "five", "x")),
                record(3, key(5), DebeziumEvents.softDeleted(5, 2))));
        index.writer().refresh();

        mvc.perform(get("/internal/index/ids"))
                .andExpect(status().isOk())
                .andExpect(header().string("X-Index-Node", "test"))
                .andExpect(header().string("X-Index-Num-Docs", "2"))
                .andExpect(content().json("""
                        {"status":200,"data":[{"id":2,"version":3},{"id":9,"version":1}]}
                        """, JsonCompareMode.STRICT));
    }

    @Test
    void statsReportCountsPhaseAndOffsetsKeyedLikeTheCommitUserData() throws Exception {
        index.writer().commit(Map.of("kafka.hanwiki.hanwiki.posts.0", "4"));
        progress.assigned(Map.of(0, 6L), Map.of(0, 4L));
        progress.applied(Map.of(0, 5L));

        mvc.perform(get("/internal/index/stats"))
                .andExpect(status().isOk())
                .andExpect(content().json("""
                        {"status":200,"data":{"node":"test","phase":"CATCHING_UP","caughtUp":false,
                         "committedOffsets":{"kafka.hanwiki.hanwiki.posts.0":4},
                         "appliedOffsets":{"kafka.hanwiki.hanwiki.posts.0":5},
                         "targetOffsets":{"kafka.hanwiki.hanwiki.posts.0":6}}}
                        """, JsonCompareMode.LENIENT));
    }
}
