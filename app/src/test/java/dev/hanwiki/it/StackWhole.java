package dev.hanwiki.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Before each integration test class: the stack is whole (every component healthy, as
 * {@code make status} judges it, and neither node drained out of nginx). A component an
 * earlier class left down is started again first ({@code infra/up.sh}, idempotent; a drained
 * node is put back by {@code ctl.sh start}), and the class fails with the status table if the
 * stack still is not whole, instead of failing for a reason that is not its own. Registered for
 * Failsafe only (META-INF/services plus {@code junit.jupiter.extensions.autodetection.enabled}
 * in the Failsafe configuration), so unit tests never look for a stack.
 */
public class StackWhole implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        String name = context.getRequiredTestClass().getSimpleName();
        Stack.Run status = status();
        if (status.exitCode() == 0 && drained().isEmpty()) {
            return;
        }
        System.out.printf("%s: the stack is not whole before it; restoring it:%n%s%n", name, status.output());
        Stack.Run up = Stack.run(List.of("bash", Stack.ROOT.resolve("infra/up.sh").toString()),
                Map.of("HANWIKI_SKIP_INSTALL", "1"), Budgets.reindex().plusMinutes(10)); // a node may be re-indexing
        for (String node : drained()) {
            Stack.infra("ctl.sh", "start", node);
        }
        status = status();
        if (status.exitCode() != 0 || !drained().isEmpty()) {
            throw new AssertionError("the stack is not whole before " + name + " and could not be restored:\n"
                    + status.output() + "\ninfra/up.sh said:\n" + up.output());
        }
    }

    private static Stack.Run status() {
        return Stack.run(List.of("bash", Stack.ROOT.resolve("infra/status.sh").toString()));
    }

    private static List<String> drained() {
        Path run = Path.of(Stack.get("VAR"), "run");
        return List.of("node1", "node2").stream().filter(n -> Files.exists(run.resolve(n + ".drained"))).toList();
    }
}
