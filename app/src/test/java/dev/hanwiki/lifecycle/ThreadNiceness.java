package dev.hanwiki.lifecycle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What tests of lowered priorities read: the calling thread's nice value, as Linux reports it. */
public final class ThreadNiceness {

    private static final Path STAT = Path.of("/proc/thread-self/stat");

    private ThreadNiceness() {
    }

    /** Whether this host reports per-thread nice values (Linux). */
    public static boolean readable() {
        return Files.exists(STAT);
    }

    /** The calling thread's nice value (field 19 of its stat). */
    public static int ofThisThread() {
        try {
            String line = Files.readString(STAT);
            return Integer.parseInt(line.substring(line.lastIndexOf(')') + 1).trim().split(" ")[16]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
