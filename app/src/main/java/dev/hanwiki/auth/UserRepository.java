package dev.hanwiki.auth;

import dev.hanwiki.platform.DatabaseTime;
import dev.hanwiki.platform.PrimaryDatabase;
import dev.hanwiki.platform.ReplicaReads;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Objects;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * SQL for users. Credentials are read from the primary (a login must never miss a fresh
 * sign-up); profiles and availability from the replica. Username and nickname comparisons
 * follow the columns' case-insensitive collation, as do the unique keys.
 */
@Repository
class UserRepository {

    private static final String VIEW = "SELECT id, username, nickname, created_at FROM users";

    /** What a login needs; {@code passwordHash} is null for accounts that cannot log in (the seed user). */
    record Credentials(long id, String passwordHash) {
    }

    private final JdbcClient primary;
    private final ReplicaReads replica;

    UserRepository(@PrimaryDatabase JdbcClient primary, ReplicaReads replica) {
        this.primary = primary;
        this.replica = replica;
    }

    long insert(String username, String nickname, String passwordHash, Instant now) {
        KeyHolder keys = new GeneratedKeyHolder();
        primary.sql("""
                        INSERT INTO users (username, nickname, password_hash, created_at)
                        VALUES (:username, :nickname, :hash, :at)
                        """)
                .param("username", username)
                .param("nickname", nickname)
                .param("hash", passwordHash)
                .param("at", DatabaseTime.toColumn(now))
                .update(keys);
        return Objects.requireNonNull(keys.getKey(), "no generated key for users.id").longValue();
    }

    /** The two unique, case-insensitive names of an account. */
    enum Name {
        USERNAME("SELECT COUNT(*) FROM users WHERE username = :v"),
        NICKNAME("SELECT COUNT(*) FROM users WHERE nickname = :v");

        private final String countSql;

        Name(String countSql) {
            this.countSql = countSql;
        }
    }

    /** On the primary: for deciding a sign-up, which must not miss a sign-up made a moment ago. */
    boolean takenOnPrimary(Name name, String value) {
        return count(primary, name, value) > 0;
    }

    /** On the replica: for the availability checks, which are advice, not decisions. */
    boolean taken(Name name, String value) {
        return replica.query(db -> count(db, name, value)) > 0;
    }

    private static long count(JdbcClient db, Name name, String value) {
        return db.sql(name.countSql).param("v", value).query(Long.class).single();
    }

    Optional<Credentials> credentials(String username) {
        return primary.sql("SELECT id, password_hash FROM users WHERE username = :v")
                .param("v", username)
                .query((rs, row) -> new Credentials(rs.getLong("id"), rs.getString("password_hash")))
                .optional();
    }

    Optional<UserView> findOnPrimary(long id) {
        return primary.sql(VIEW + " WHERE id = :id").param("id", id).query(UserRepository::view).optional();
    }

    Optional<UserView> find(long id) {
        return replica.query(db -> db.sql(VIEW + " WHERE id = :id").param("id", id).query(UserRepository::view).optional());
    }

    private static UserView view(ResultSet rs, int row) throws SQLException {
        return new UserView(rs.getLong("id"), rs.getString("username"), rs.getString("nickname"),
                DatabaseTime.fromColumn(rs.getObject("created_at", LocalDateTime.class)));
    }
}
