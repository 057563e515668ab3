package dev.hanwiki.lifecycle;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the CPU priority of the calling thread alone (Linux: {@code setpriority} on the
 * thread's own id, a per-thread nice value), so that background work (the change indexer, Lucene's
 * merges) yields the cores to requests when the machine is full, and still gets every idle cycle
 * when it is not (ADR 0093, fourth amendment). Only ever lowers: raising a thread's priority back
 * needs a privilege (CAP_SYS_NICE) a node does not have, so a thread that is lowered stays lowered
 * and work that must run at normal priority runs on another thread.
 * <p>
 * Where the calls are missing (not Linux, no glibc) it does nothing and says so once.
 */
public final class ThreadPriority {

    private static final Logger log = LoggerFactory.getLogger(ThreadPriority.class);
    private static final int PRIO_PROCESS = 0;
    /** Highest nice value Linux accepts: the lowest priority. */
    public static final int LOWEST = 19;

    private static final Calls CALLS = Calls.find().orElse(null);
    private static volatile boolean warned;

    private ThreadPriority() {
    }

    /**
     * Sets the calling thread's nice value to {@code nice} (0: leave it as it is; clamped to
     * {@link #LOWEST}); false when that could not be done (logged).
     */
    public static boolean lowerCurrentThread(int nice) {
        if (nice <= 0) {
            return true;
        }
        if (CALLS == null) {
            warnOnce("per-thread priority is not available here (no gettid/setpriority): background work runs at normal priority");
            return false;
        }
        int target = Math.min(nice, LOWEST);
        try {
            int tid = (int) CALLS.gettid.invokeExact();
            int result = (int) CALLS.setpriority.invokeExact(PRIO_PROCESS, tid, target);
            if (result != 0) {
                warnOnce("setpriority(" + target + ") was refused for thread " + Thread.currentThread().getName()
                        + ": background work runs at normal priority");
                return false;
            }
            return true;
        } catch (Throwable e) {
            warnOnce("setpriority failed: " + e + "; background work runs at normal priority");
            return false;
        }
    }

    private static void warnOnce(String message) {
        if (!warned) {
            warned = true;
            log.warn(message);
        }
    }

    private record Calls(MethodHandle gettid, MethodHandle setpriority) {
        static Optional<Calls> find() {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                var gettid = libc.find("gettid");
                var setpriority = libc.find("setpriority");
                if (gettid.isEmpty() || setpriority.isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new Calls(
                        linker.downcallHandle(gettid.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT)),
                        linker.downcallHandle(setpriority.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT))));
            } catch (RuntimeException | LinkageError e) {
                return Optional.empty(); // no native access (not enabled) or an unknown platform
            }
        }
    }
}
