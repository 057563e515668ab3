package dev.hanwiki.cdc;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Change events in the exact shape Debezium's MariaDB connector writes them with
 * JsonConverter and schemas disabled: SQL column names, DATETIME(6) as epoch microseconds.
 */
final class DebeziumEvents {

    static final String TOPIC = "hanwiki.hanwiki.posts";
    /** 2025-11-21T03:00:00.123456Z */
    static final long CREATED_MICROS = 1_763_694_000_123_456L;
    static final long SOURCE_TS_MS = 1_763_694_000_200L;

    private DebeziumEvents() {
    }

    static String key(long id) {
        return "{\"id\":" + id + "}";
    }

    static String row(long id, String title, String content, Long categoryId, long version, Long deletedAtMicros) {
        return """
                {"id":%d,"title":"%s","content":"%s","category_id":%s,"author_id":1,"view_count":3,"like_count":2,\
                "version":%d,"created_at":%d,"updated_at":%d,"deleted_at":%s}"""
                .formatted(id, title, content, categoryId, version, CREATED_MICROS, CREATED_MICROS + version,
                        deletedAtMicros);
    }

    static String event(String op, String before, String after) {
        return event("posts", op, before, after);
    }

    static String event(String table, String op, String before, String after) {
        return """
                {"before":%s,"after":%s,"source":{"version":"3.5.0.Final","connector":"mariadb","name":"hanwiki",\
                "ts_ms":%d,"snapshot":"%s","db":"hanwiki","sequence":null,"ts_us":%d,"ts_ns":%d,"table":"%s",\
                "server_id":1,"gtid":"0-1-42","file":"mariadb-bin.000003","pos":1234,"row":0,"thread":12,"query":null},\
                "transaction":null,"op":"%s","ts_ms":%d,"ts_us":%d,"ts_ns":%d}"""
                .formatted(before, after, SOURCE_TS_MS, op.equals("r") ? "true" : "false", SOURCE_TS_MS * 1000,
                        SOURCE_TS_MS * 1_000_000, table, op, SOURCE_TS_MS + 50, (SOURCE_TS_MS + 50) * 1000,
                        (SOURCE_TS_MS + 50) * 1_000_000);
    }

    static String created(long id, String title, String content) {
        return event("c", null, row(id, title, content, null, 1, null));
    }

    static String snapshot(long id, String title, String content, long version) {
        return event("r", null, row(id, title, content, null, version, null));
    }

    /** A snapshot row with Debezium's marker for where in the snapshot it stands ("first", "last", ...). */
    static String snapshot(long id, String title, String content, long version, String marker) {
        return snapshot(id, title, content, version).replace("\"snapshot\":\"true\"", "\"snapshot\":\"" + marker + "\"");
    }

    static String updated(long id, String title, String content, long version) {
        return event("u", row(id, "before", "before", null, version - 1, null), row(id, title, content, null, version, null));
    }

    /** A like or a view flush: the row changes without a new version. */
    static String countersUpdated(long id, long version) {
        return event("u", row(id, "t", "c", null, version, null), row(id, "t", "c", null, version, null));
    }

    static String softDeleted(long id, long version) {
        return event("u", row(id, "t", "c", null, version - 1, null), row(id, "t", "c", null, version, CREATED_MICROS + 99));
    }

    static String hardDeleted(long id) {
        return event("d", row(id, "t", "c", null, 1, null), null);
    }

    /** A page row as written since ADR 0080: no counts (they live in post_counters). */
    static String pageRow(long id, String title, String content, long version) {
        return """
                {"id":%d,"title":"%s","content":"%s","category_id":null,"author_id":1,\
                "version":%d,"created_at":%d,"updated_at":%d,"deleted_at":null}"""
                .formatted(id, title, content, version, CREATED_MICROS, CREATED_MICROS + version);
    }

    static String pageUpdated(long id, String title, String content, long version) {
        return event("u", pageRow(id, "before", "before", version - 1), pageRow(id, title, content, version));
    }

    static String counterKey(long postId) {
        return "{\"post_id\":" + postId + "}";
    }

    static String counterRow(long postId, long views, long likes, long version) {
        return "{\"post_id\":%d,\"view_count\":%d,\"like_count\":%d,\"version\":%d}".formatted(postId, views, likes, version);
    }

    /** A like, an unlike or a view flush since ADR 0080: the counter row, routed into the posts topic. */
    static String countersChanged(long postId, long views, long likes, long version) {
        return event("post_counters", version == 1 ? "c" : "u",
                version == 1 ? null : counterRow(postId, views, likes, version - 1), counterRow(postId, views, likes, version));
    }

    static ConsumerRecord<String, String> record(long offset, String key, String value) {
        return new ConsumerRecord<>(TOPIC, 0, offset, key, value);
    }
}
