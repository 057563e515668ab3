package dev.hanwiki.cdc;

import dev.hanwiki.platform.ApiResponse;
import dev.hanwiki.platform.InvalidInputException;
import dev.hanwiki.platform.NodeSettings;
import dev.hanwiki.search.DocCounts;
import dev.hanwiki.search.DocVersion;
import dev.hanwiki.search.IndexSnapshot;
import dev.hanwiki.search.IndexedContent;
import dev.hanwiki.search.PostIndex;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Per-node index inspection for operators and integration tests. Reachable on the node's own
 * port only: nginx refuses {@code /internal/}.
 */
@RestController
@RequestMapping("/internal/index")
class InternalIndexController {

    private final NodeSettings node;
    private final CdcSettings cdc;
    private final PostIndex index;
    private final IndexerProgress progress;

    InternalIndexController(NodeSettings node, CdcSettings cdc, PostIndex index, IndexerProgress progress) {
        this.node = node;
        this.cdc = cdc;
        this.index = index;
        this.progress = progress;
    }

    /**
     * {@code numDocs}: live posts only; {@code tombstones}: deletes still remembered (not documents);
     * {@code insideSnapshot}: the last change applied is a snapshot row with more to come.
     */
    record Stats(String node, int numDocs, int maxDoc, int tombstones, String phase, boolean caughtUp,
            boolean insideSnapshot, Map<String, Long> committedOffsets, Map<String, Long> appliedOffsets, Map<String, Long> targetOffsets) {
    }

    @GetMapping("/stats")
    ApiResponse<Stats> stats() {
        DocCounts counts = index.docCounts();
        IndexerProgress.Snapshot state = progress.snapshot();
        String topic = cdc.postsTopic();
        return ApiResponse.ok(new Stats(node.id(), counts.numDocs(), counts.maxDoc(), index.writer().tombstoneCount(), state.phase().name(), state.caughtUp(),
                state.insideSnapshot(), OffsetKeys.named(topic, OffsetKeys.decode(topic, index.committedUserData())),
                OffsetKeys.named(topic, state.appliedOffsets()),
                OffsetKeys.named(topic, state.targetOffsets())));
    }

    /**
     * Every live document as {@code [{"id":1,"version":3},...]} in id order. A duplicate would
     * appear twice; the counts of the same searcher are in headers, so the body stays a list.
     */
    @GetMapping("/ids")
    ResponseEntity<ApiResponse<List<DocVersion>>> ids() {
        IndexSnapshot snapshot = index.snapshot();
        return ResponseEntity.ok()
                .header("X-Index-Node", node.id())
                .header("X-Index-Num-Docs", Integer.toString(snapshot.numDocs()))
                .header("X-Index-Max-Doc", Integer.toString(snapshot.maxDoc()))
                .body(ApiResponse.ok(snapshot.docs()));
    }

    /** Versions visible to this node's search for up to 1000 ids: {@code {"12":3,...}}. */
    @GetMapping("/versions")
    ApiResponse<Map<Long, Long>> versions(@RequestParam List<Long> ids) {
        if (ids.size() > 1000) {
            throw new InvalidInputException("at most 1000 ids per call");
        }
        return ApiResponse.ok(index.visibleVersions(ids));
    }

    /**
     * Content digests ({@link IndexedContent#digest}) of up to 1000 ids as this node's search
     * shows them: {@code {"12":"9f86...",...}}; ids not in the index are left out.
     */
    @GetMapping("/digests")
    ApiResponse<Map<Long, String>> digests(@RequestParam List<Long> ids) {
        if (ids.size() > 1000) {
            throw new InvalidInputException("at most 1000 ids per call");
        }
        return ApiResponse.ok(IndexedContent.of(index, ids));
    }
}
