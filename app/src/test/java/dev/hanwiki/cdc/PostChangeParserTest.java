package dev.hanwiki.cdc;

import static dev.hanwiki.cdc.DebeziumEvents.CREATED_MICROS;
import static dev.hanwiki.cdc.DebeziumEvents.SOURCE_TS_MS;
import static dev.hanwiki.cdc.DebeziumEvents.event;
import static dev.hanwiki.cdc.DebeziumEvents.key;
import static dev.hanwiki.cdc.DebeziumEvents.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hanwiki.search.PostDocument;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

class PostChangeParserTest {

    private final PostChangeParser parser = new PostChangeParser(JsonMapper.builder().build());

    @Test
    void createBecomesUpsertWithEveryColumnAndMicrosecondTimestamps() throws Exception {
        PostChange change = parser.parse(key(5), event("c", null, row(5, "서울", "대한민국의 수도", 7L, 1, null)));

        assertThat(change).isEqualTo(new PostChange.Upsert(
                new PostDocument(5, "서울", "대한민국의 수도", 7L, 1, 3, 2,
                        Instant.parse("2025-11-21T03:00:00.123456Z"), Instant.parse("2025-11-21T03:00:00.123457Z"), 1),
                OptionalLong.of((CREATED_MICROS + 1) / 1000)));
    }

    @Test
    void counterRowBecomesACounterChangeWithItsRowVersion() throws Exception {
        PostChange change = parser.parse(DebeziumEvents.counterKey(5), DebeziumEvents.countersChanged(5, 120, 7, 33));

        assertThat(change).isEqualTo(new PostChange.Counters(5, new dev.hanwiki.search.PostCounters(120, 7, 33)));
        assertThat(change.changedAtMillis()).isEmpty();
    }

    @Test
    void counterRowRemovedOrTombstonedMeansNothingForTheIndex() throws Exception {
        String removed = DebeziumEvents.event("post_counters", "d", DebeziumEvents.counterRow(5, 1, 1, 3), null);

        assertThat(parser.parse(DebeziumEvents.counterKey(5), removed)).isEqualTo(new PostChange.Ignored(5));
        assertThat(parser.parse(DebeziumEvents.counterKey(5), null)).isEqualTo(new PostChange.Ignored(5));
    }

    @Test
    void pageRowWithoutCountsDoesNotCarryCounters() throws Exception {
        PostChange.Upsert newer = (PostChange.Upsert) parser.parse(key(5), DebeziumEvents.pageUpdated(5, "t", "c", 2));
        PostChange.Upsert older = (PostChange.Upsert) parser.parse(key(5), DebeziumEvents.updated(5, "t", "c", 2));

        assertThat(newer.carriesCounters()).isFalse();
        assertThat(newer.post().viewCount()).isZero();
        assertThat(older.carriesCounters()).isTrue();
        assertThat(older.post().viewCount()).isEqualTo(3);
    }

    @Test
    void counterRowWithoutCountsIsMalformed() {
        String broken = DebeziumEvents.event("post_counters", "u", null, "{\"post_id\":5,\"version\":2}");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parser.parse(DebeziumEvents.counterKey(5), broken))
                .isInstanceOf(MalformedChangeException.class).hasMessageContaining("view_count");
    }

    @Test
    void nullCategoryStaysNull() throws Exception {
        PostChange.Upsert upsert = (PostChange.Upsert) parser.parse(key(5), DebeziumEvents.created(5, "t", "c"));

        assertThat(upsert.post().categoryId()).isNull();
    }

    @Test
    void snapshotReadBecomesUpsertWithoutAWriteTime() throws Exception {
        PostChange change = parser.parse(key(9), DebeziumEvents.snapshot(9, "t", "c", 4));

        assertThat(change).isInstanceOfSatisfying(PostChange.Upsert.class, u -> {
            assertThat(u.post().id()).isEqualTo(9);
            assertThat(u.post().version()).isEqualTo(4);
            assertThat(u.changedAtMillis()).isEmpty();
        });
    }

    @Test
    void aSnapshotRowWithMoreToComeIsInsideASnapshotAndItsLastRowAndStreamedChangesAreNot() {
        assertThat(parser.insideSnapshot(DebeziumEvents.snapshot(9, "t", "c", 4))).isTrue();
        assertThat(parser.insideSnapshot(DebeziumEvents.snapshot(9, "t", "c", 4, "first"))).isTrue();
        // two tables go into the topic: the end of the first one is not the end of the snapshot
        assertThat(parser.insideSnapshot(DebeziumEvents.snapshot(9, "t", "c", 4, "last_in_data_collection"))).isTrue();
        assertThat(parser.insideSnapshot(DebeziumEvents.snapshot(9, "t", "c", 4, "last"))).isFalse();
        assertThat(parser.insideSnapshot(DebeziumEvents.created(9, "t", "c"))).isFalse();
        assertThat(parser.insideSnapshot(null)).isFalse(); // a tombstone
        assertThat(parser.insideSnapshot("not json")).isFalse();
    }

    @Test
    void updateBecomesUpsertOfTheAfterRow() throws Exception {
        PostChange change = parser.parse(key(9), DebeziumEvents.updated(9, "new", "body", 3));

        assertThat(change).isInstanceOfSatisfying(PostChange.Upsert.class, u -> {
            assertThat(u.post().title()).isEqualTo("new");
            assertThat(u.post().version()).isEqualTo(3);
        });
    }

    @Test
    void updateThatSetsDeletedAtBecomesDelete() throws Exception {
        PostChange change = parser.parse(key(9), DebeziumEvents.softDeleted(9, 4));

        assertThat(change).isEqualTo(new PostChange.Delete(9, OptionalLong.of(4), OptionalLong.of((CREATED_MICROS + 4) / 1000), OptionalLong.of((CREATED_MICROS + 99) / 1000)));
    }

    @Test
    void hardDeleteUsesTheBeforeRowAndItsVersion() throws Exception {
        PostChange change = parser.parse(key(9), DebeziumEvents.hardDeleted(9));

        assertThat(change).isEqualTo(new PostChange.Delete(9, OptionalLong.of(1), OptionalLong.of(SOURCE_TS_MS), OptionalLong.of(SOURCE_TS_MS)));
    }

    @Test
    void deleteWithoutBeforeRowFallsBackToTheKey() throws Exception {
        PostChange change = parser.parse(key(11), event("d", null, null));

        assertThat(change).isEqualTo(new PostChange.Delete(11, OptionalLong.empty(), OptionalLong.of(SOURCE_TS_MS), OptionalLong.of(SOURCE_TS_MS)));
    }

    @Test
    void tombstoneDeletesByKeyIdWithoutAVersion() throws Exception {
        assertThat(parser.parse(key(12), null)).isEqualTo(new PostChange.Delete(12, OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty()));
    }

    @Test
    void envelopeWithSchemasEnabledIsUnwrapped() throws Exception {
        String wrapped = "{\"schema\":{\"type\":\"struct\"},\"payload\":" + DebeziumEvents.created(3, "t", "c") + "}";

        assertThat(parser.parse("{\"schema\":{},\"payload\":{\"id\":3}}", wrapped)).isInstanceOf(PostChange.Upsert.class);
    }

    @Test
    void aCounterOnlyUpdateIsIndexedButHasNoWriteTime() throws Exception {
        PostChange change = parser.parse(key(1), event("u", row(1, "t", "c", null, 3, null), row(1, "t", "c", null, 3, null)));

        assertThat(change).isInstanceOf(PostChange.Upsert.class);
        assertThat(change.changedAtMillis()).isEmpty();
    }

    @Test
    void writeTimeIsTheRowUpdateTimeBecauseBinlogTimestampsHaveWholeSecondPrecision() throws Exception {
        PostChange change = parser.parse(key(1), DebeziumEvents.updated(1, "t", "c", 3));

        assertThat(change.changedAtMillis()).hasValue((CREATED_MICROS + 3) / 1000);
    }

    /** The demo seed and imports write pages with their original dates; those are not write times. */
    @Test
    void aRowTimeThatDisagreesWithTheBinlogsByMoreThanAMinuteGivesWayToTheBinlogs() throws Exception {
        long agreement = PostChangeParser.ROW_TIME_AGREEMENT.toMillis() * 1000;
        String row = row(1, "t", "c", null, 1, null);
        String threeYearsOld = row.replace("\"updated_at\":" + (CREATED_MICROS + 1), "\"updated_at\":" + (CREATED_MICROS - 94_608_000_000_000L));
        String justWithin = row.replace("\"updated_at\":" + (CREATED_MICROS + 1), "\"updated_at\":" + (SOURCE_TS_MS * 1000 - agreement));
        String aheadOfIt = row.replace("\"updated_at\":" + (CREATED_MICROS + 1), "\"updated_at\":" + (SOURCE_TS_MS * 1000 + agreement + 1000));

        assertThat(parser.parse(key(1), event("c", null, threeYearsOld)).changedAtMillis()).hasValue(SOURCE_TS_MS);
        assertThat(parser.parse(key(1), event("c", null, aheadOfIt)).changedAtMillis()).hasValue(SOURCE_TS_MS);
        assertThat(parser.parse(key(1), event("c", null, justWithin)).changedAtMillis())
                .hasValue(SOURCE_TS_MS - PostChangeParser.ROW_TIME_AGREEMENT.toMillis());
        assertThat(parser.parse(key(1), event("u", row(1, "b", "b", null, 0, null), threeYearsOld)).changedAtMillis())
                .hasValue(SOURCE_TS_MS);
    }

    @Test
    void hardDeleteWriteTimeFallsBackToSourceThenEventTimestamp() throws Exception {
        String withoutSource = "{\"before\":" + row(1, "t", "c", null, 1, null) + ",\"after\":null,\"op\":\"d\",\"ts_ms\":77}";

        assertThat(parser.parse(key(1), DebeziumEvents.hardDeleted(1)).changedAtMillis()).hasValue(SOURCE_TS_MS);
        assertThat(parser.parse(key(1), withoutSource).changedAtMillis()).hasValue(77);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "not json",
            "[1,2,3]",
            "\"a string\"",
            "{}",
            "{\"op\":\"x\",\"after\":{}}",
            "{\"op\":\"t\",\"source\":{}}",
            "{\"op\":\"c\",\"after\":null}",
            "{\"op\":\"c\",\"after\":{\"id\":\"seven\"}}",
            "{\"op\":\"u\",\"after\":{\"id\":1,\"title\":\"t\"}}",
            "{\"op\":\"c\",\"after\":{\"id\":1,\"title\":5,\"content\":\"c\",\"author_id\":1,\"view_count\":0,"
                    + "\"like_count\":0,\"version\":1,\"created_at\":1,\"updated_at\":1,\"deleted_at\":null}}",
            "{\"op\":\"c\",\"after\":{\"id\":1.5,\"title\":\"t\"}}"})
    void garbledValueIsMalformed(String value) {
        assertThatThrownBy(() -> parser.parse(key(1), value)).isInstanceOf(MalformedChangeException.class);
    }

    @Test
    void tombstoneWithoutUsableKeyIsMalformed() {
        assertThatThrownBy(() -> parser.parse(null, null)).isInstanceOf(MalformedChangeException.class);
        assertThatThrownBy(() -> parser.parse("{\"id\":null}", null)).isInstanceOf(MalformedChangeException.class);
        assertThatThrownBy(() -> parser.parse("garbage", null)).isInstanceOf(MalformedChangeException.class);
    }

    @Test
    void createdAtMicrosecondsAreKeptExactly() throws Exception {
        PostChange.Upsert upsert = (PostChange.Upsert) parser.parse(key(1), DebeziumEvents.created(1, "t", "c"));

        assertThat(upsert.post().createdAt().getEpochSecond() * 1_000_000 + upsert.post().createdAt().getNano() / 1000)
                .isEqualTo(CREATED_MICROS);
    }
}
