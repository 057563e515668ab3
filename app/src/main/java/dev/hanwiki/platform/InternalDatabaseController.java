package dev.hanwiki.platform;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Where this node's reads go right now, for operators and integration tests. Reachable on the
 * node's own port only: nginx refuses {@code /internal/}.
 */
@RestController
class InternalDatabaseController {

    private final NodeSettings node;
    private final ReplicaMonitor monitor;

    InternalDatabaseController(NodeSettings node, ReplicaMonitor monitor) {
        this.node = node;
        this.monitor = monitor;
    }

    record Routing(String node, String readsFrom, String state, Long lastLagMillis, String reason) {
    }

    @GetMapping("/internal/db/routing")
    ApiResponse<Routing> routing() {
        ReplicaMonitor.Status status = monitor.status();
        return ApiResponse.ok(new Routing(node.id(), status.readsOnReplica() ? "replica" : "primary", status.state().name(),
                status.lastLag() == null ? null : status.lastLag().toMillis(), status.reason()));
    }
}
