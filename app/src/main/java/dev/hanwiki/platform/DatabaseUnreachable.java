package dev.hanwiki.platform;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;

/**
 * Whether a failed query failed because its server could not be reached (down, restarting, cut
 * off, or its connection died mid-query), as opposed to the query itself being refused. Only the
 * first kind is worth asking the other database. MariaDB's driver reports a dead server as a
 * resource failure, Connector/J a connection that died mid-query as a recoverable exception, and
 * a pool that cannot get a connection in time is transient: all three mean "unreachable".
 */
public final class DatabaseUnreachable {

    private DatabaseUnreachable() {
    }

    public static boolean is(DataAccessException e) {
        return e instanceof DataAccessResourceFailureException
                || e instanceof TransientDataAccessException
                || e instanceof RecoverableDataAccessException;
    }
}
