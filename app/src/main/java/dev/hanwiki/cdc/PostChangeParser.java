package dev.hanwiki.cdc;

import dev.hanwiki.search.PostCounters;
import dev.hanwiki.search.PostDocument;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads Debezium's JSON for the {@code posts} table and its {@code post_counters} rows, which
 * the connector routes into the same topic (ADR 0080; key {@code {"post_id":N}}) so they keep
 * their binlog order with the posts' own changes. For {@code posts} (JsonConverter, schemas disabled): key
 * {@code {"id":N}}, value {@code {"before","after","source","op","ts_ms"}} or null for the
 * tombstone after a delete. Columns keep their SQL names; DATETIME(6) values arrive as epoch
 * microseconds. A row with {@code deleted_at} set is a soft delete, so it becomes a Delete.
 */
@Component
class PostChangeParser {

    static final String COUNTERS_TABLE = "post_counters";
    /**
     * A write's {@code updated_at} is read from its node's clock just before its statements run;
     * the binlog stamps each statement's start on the primary, in whole seconds. The two differ by
     * the transaction's duration, lock waits included, and the hosts' clock skew: well under this.
     */
    static final Duration ROW_TIME_AGREEMENT = Duration.ofMinutes(1);
    private static final String COUNTER_KEY = "post_id";

    private final JsonMapper json;

    PostChangeParser(JsonMapper json) {
        this.json = json;
    }

    PostChange parse(String key, String value) throws MalformedChangeException {
        if (value == null) {
            JsonNode keyNode = key == null ? null : payload(read(key, "key"));
            if (keyNode != null && keyNode.has(COUNTER_KEY)) {
                return new PostChange.Ignored(requiredLong(keyNode, COUNTER_KEY));
            }
            return new PostChange.Delete(keyId(key), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
        }
        JsonNode event = payload(read(value, "value"));
        if (COUNTERS_TABLE.equals(event.path("source").path("table").asString(""))) {
            return counters(event);
        }
        OptionalLong sourceTs = sourceTimestamp(event);
        String op = event.path("op").asString("");
        switch (op) {
            case "c", "r", "u" -> {
                JsonNode after = event.get("after");
                if (after == null || !after.isObject()) {
                    throw new MalformedChangeException("op '" + op + "' without an 'after' row");
                }
                OptionalLong changedAt = op.equals("r") || countersOnly(event.get("before"), after)
                        ? OptionalLong.empty() : writeTime(after, sourceTs);
                if (!isNull(after, "deleted_at")) {
                    return new PostChange.Delete(requiredLong(after, "id"), OptionalLong.of(requiredLong(after, "version")),
                            changedAt, OptionalLong.of(Math.floorDiv(requiredLong(after, "deleted_at"), 1000L)));
                }
                return new PostChange.Upsert(document(after), changedAt, hasCounters(after));
            }
            case "d" -> {
                JsonNode before = event.get("before");
                if (before == null || !before.isObject()) {
                    return new PostChange.Delete(keyId(key), OptionalLong.empty(), sourceTs, sourceTs);
                }
                return new PostChange.Delete(requiredLong(before, "id"), OptionalLong.of(requiredLong(before, "version")),
                        sourceTs, sourceTs);
            }
            default -> throw new MalformedChangeException("unsupported op '" + op + "'");
        }
    }

    /**
     * A change of the post's counter row, routed into the posts topic by the connector (ADR
     * 0080): {@code post_id, view_count, like_count, version}. A removed row (its post was
     * hard-deleted, which the post's own event says) means nothing for the index.
     */
    private static PostChange counters(JsonNode event) throws MalformedChangeException {
        String op = event.path("op").asString("");
        switch (op) {
            case "c", "r", "u" -> {
                JsonNode after = event.get("after");
                if (after == null || !after.isObject()) {
                    throw new MalformedChangeException("op '" + op + "' without an 'after' row");
                }
                return new PostChange.Counters(requiredLong(after, COUNTER_KEY), new PostCounters(
                        requiredLong(after, "view_count"), requiredLong(after, "like_count"), requiredLong(after, "version")));
            }
            case "d" -> {
                JsonNode before = event.get("before");
                if (before == null || !before.isObject()) {
                    throw new MalformedChangeException("counter row delete without a 'before' row");
                }
                return new PostChange.Ignored(requiredLong(before, COUNTER_KEY));
            }
            default -> throw new MalformedChangeException("unsupported op '" + op + "'");
        }
    }

    /**
     * Whether this record was read by a snapshot that has more rows to come: Debezium marks each
     * snapshot row in {@code source.snapshot} ({@code first}, {@code true}, the last row of each
     * table {@code last_in_data_collection}: the connector snapshots two tables into this topic),
     * the snapshot's very last row {@code last}, and streamed changes {@code false}. A topic whose
     * newest record is inside a snapshot is still being filled with the database's rows (after
     * {@code make restore}, or a re-snapshot), so a node rebuilding from it is not complete yet
     * when it reaches the end. Unreadable records and tombstones are not inside a snapshot.
     */
    boolean insideSnapshot(String value) {
        if (value == null) {
            return false;
        }
        try {
            String marker = payload(read(value, "value")).path("source").path("snapshot").asString("false");
            return switch (marker) {
                case "first", "true", "first_in_data_collection", "last_in_data_collection" -> true;
                default -> false;
            };
        } catch (MalformedChangeException e) {
            return false;
        }
    }

    private long keyId(String key) throws MalformedChangeException {
        if (key == null) {
            throw new MalformedChangeException("record has neither a value nor a key");
        }
        return requiredLong(payload(read(key, "key")), "id");
    }

    private JsonNode read(String text, String what) throws MalformedChangeException {
        try {
            JsonNode node = json.readTree(text);
            if (node == null || !node.isObject()) {
                throw new MalformedChangeException(what + " is not a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw new MalformedChangeException(what + " is not valid JSON", e);
        }
    }

    /** Tolerates a converter left at schemas.enable=true, which wraps everything in "payload". */
    private static JsonNode payload(JsonNode node) {
        JsonNode payload = node.get("payload");
        return node.has("schema") && payload != null && payload.isObject() ? payload : node;
    }

    /**
     * Likes and flushed views change counters without a version bump or a new updated_at: not a
     * fresh write whose visibility lag could be measured from the row time.
     */
    private static boolean countersOnly(JsonNode before, JsonNode after) {
        return before != null && before.isObject() && before.path("version").isIntegralNumber()
                && before.path("version").longValue() == after.path("version").longValue();
    }

    /**
     * When a change was written: the row's {@code updated_at} (microseconds) if it agrees with the
     * binlog event's time ({@code sourceTs}, whole seconds) to within {@link #ROW_TIME_AGREEMENT},
     * else the binlog's. A row can carry a time that is not its write time: a bulk load or an
     * import writes pages with their original dates (the demo seed's go back years). Taken as
     * write times, those read as changes years behind: in the indexer's catching-up log line
     * ("250338589078 ms behind") and in the write-to-searchable histograms behind the
     * {@code WriteToSearchSlow} alert.
     */
    private static OptionalLong writeTime(JsonNode row, OptionalLong sourceTs) {
        JsonNode updatedAt = row.get("updated_at");
        if (updatedAt == null || !updatedAt.isIntegralNumber()) {
            return sourceTs;
        }
        long rowMillis = Math.floorDiv(updatedAt.longValue(), 1000L);
        return sourceTs.isPresent() && Math.abs(rowMillis - sourceTs.getAsLong()) > ROW_TIME_AGREEMENT.toMillis()
                ? sourceTs
                : OptionalLong.of(rowMillis);
    }

    private static OptionalLong sourceTimestamp(JsonNode event) {
        JsonNode ts = event.path("source").path("ts_ms");
        if (ts.isIntegralNumber()) {
            return OptionalLong.of(ts.longValue());
        }
        JsonNode eventTs = event.path("ts_ms");
        return eventTs.isIntegralNumber() ? OptionalLong.of(eventTs.longValue()) : OptionalLong.empty();
    }

    private static PostDocument document(JsonNode row) throws MalformedChangeException {
        return new PostDocument(
                requiredLong(row, "id"),
                requiredText(row, "title"),
                requiredText(row, "content"),
                isNull(row, "category_id") ? null : requiredLong(row, "category_id"),
                requiredLong(row, "author_id"),
                hasCounters(row) ? requiredLong(row, "view_count") : 0,
                hasCounters(row) ? requiredLong(row, "like_count") : 0,
                micros(requiredLong(row, "created_at")),
                micros(requiredLong(row, "updated_at")),
                requiredLong(row, "version"));
    }

    /** Page rows from before ADR 0080 carry the counts; newer ones do not. */
    private static boolean hasCounters(JsonNode row) {
        return row.has("view_count") && row.has("like_count");
    }

    private static boolean isNull(JsonNode row, String column) {
        JsonNode value = row.get(column);
        return value == null || value.isNull();
    }

    private static long requiredLong(JsonNode row, String column) throws MalformedChangeException {
        JsonNode value = row.get(column);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new MalformedChangeException("column '" + column + "' is not an integer: " + value);
        }
        return value.longValue();
    }

    private static String requiredText(JsonNode row, String column) throws MalformedChangeException {
        JsonNode value = row.get(column);
        if (value == null || !value.isString()) {
            throw new MalformedChangeException("column '" + column + "' is not a string");
        }
        return value.stringValue();
    }

    private static Instant micros(long epochMicros) {
        return Instant.EPOCH.plus(epochMicros, ChronoUnit.MICROS);
    }
}
