package dev.hanwiki.platform;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Whether a failed query failed because its server could not be reached (down, restarting, cut
 * off, or its connection died mid-query), as opposed to the query itself being refused. Only the
 * first kind is worth asking the other database, and the same kinds are what {@link ProblemAdvice}
 * answers with 503 DATABASE_UNAVAILABLE. A pool that cannot get a connection, or MariaDB's driver
 * meeting a dead server, is a resource failure; Connector/J's connection that died mid-query (a
 * socket timeout included) is recoverable; a transient connection failure is a transient resource
 * failure. Lock waits, deadlocks and statement timeouts are other transient failures: the server
 * answered, so they are not "unreachable".
 */
public final class DatabaseUnreachable {

    private DatabaseUnreachable() {
    }

    public static boolean is(DataAccessException e) {
        return e instanceof DataAccessResourceFailureException
                || e instanceof TransientDataAccessResourceException
                || e instanceof RecoverableDataAccessException;
    }
}
