package dev.hanwiki.platform;

import java.sql.SQLException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether the database refused a write because it has no space left for it (chaos disk-full): a
 * table that cannot grow ({@code ER_RECORD_FILE_FULL} 1114, what InnoDB answers when its
 * tablespace cannot be extended), the server's own disk-full error ({@code ER_DISK_FULL} 1021),
 * or a file write or storage-engine call that failed with the operating system's {@code ENOSPC}
 * (errno 28, inside {@code ER_ERROR_ON_WRITE} 1026 or {@code ER_GET_ERRNO} 1030). The statement
 * was refused and its transaction rolls back: nothing of the write was saved, unlike a write the
 * primary holds until space returns ({@link WriteNotConfirmedException}). Spring has no category
 * for these codes, so they arrive as an uncategorized SQL exception; {@link ProblemAdvice} answers
 * them with 503 {@code DATABASE_FULL} instead of a 500.
 */
public final class DatabaseFull {

    private static final Set<Integer> ALWAYS_FULL = Set.of(1021, 1114);
    private static final Set<Integer> FULL_WITH_ENOSPC = Set.of(1026, 1030);
    private static final Pattern ENOSPC = Pattern.compile("\\b(?:errno:? ?|error )28\\b");

    private DatabaseFull() {
    }

    public static boolean is(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException sql && full(sql)) {
                return true;
            }
        }
        return false;
    }

    private static boolean full(SQLException e) {
        int code = e.getErrorCode();
        return ALWAYS_FULL.contains(code)
                || FULL_WITH_ENOSPC.contains(code) && e.getMessage() != null && ENOSPC.matcher(e.getMessage()).find();
    }
}
