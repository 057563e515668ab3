package dev.hanwiki.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hanwiki.search.PostIndex;
import dev.hanwiki.search.SearchAnalysis;
import dev.hanwiki.search.SearchSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The property of issue 6: a recorded change stream of a few dozen posts (creates, edits,
 * likes, view flushes, soft deletes, hard deletes with their Kafka tombstones), delivered the
 * way at-least-once delivery really can deliver it (duplicates, connector replays of an older
 * range, late copies of events that were superseded since) and consumed by an indexer that
 * commits, crashes ({@code kill -9}: uncommitted work lost) and restarts from the offsets in
 * its last commit, ends in exactly the index that the clean, in-order application gives.
 * <p>
 * A seeded loop: every iteration prints nothing unless it fails, then it names its seed;
 * rerun one with {@code -Dreplay.seed=N}, more with {@code -Dreplay.iterations=N}.
 */
class ReplayedStreamPropertyTest {

    private static final String TOPIC = DebeziumEvents.TOPIC;
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-11-21T03:00:00Z"), ZoneOffset.UTC);
    private static final String[] WORDS = {"경복궁", "북촌", "한옥", "서울", "여행", "부산", "바다", "위키", "역사", "kimchi", "Seoul", "사찰"};

    @TempDir
    Path dir;

    private final PostChangeParser parser = new PostChangeParser(JsonMapper.builder().build());
    /** Loading Nori's dictionary once, not per index opened: the loop opens hundreds. */
    private SearchAnalysis analysis;
    private final List<Path> runs = new ArrayList<>();

    @BeforeEach
    void loadAnalysis() {
        analysis = new SearchAnalysis(SearchSettings.at(dir));
    }

    @AfterEach
    void closeAnalysis() throws IOException {
        for (Path run : runs) {
            try (var files = Files.walk(run)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * Where the indexes go: tmpfs when there is one, because the loop commits and reopens
     * hundreds of indexes and each commit is an fsync, which a busy disk makes slow.
     */
    private Path scratch() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : dir;
    }

    private PostIndex open(Path path) throws IOException {
        return new PostIndex(SearchSettings.at(path), analysis);
    }

    @Test
    void duplicatedReplayedAndReorderedDeliveryAcrossCrashesGivesTheCleanIndex() throws IOException {
        long base = Long.getLong("replay.seed", new Random().nextLong());
        int iterations = Integer.getInteger("replay.iterations", System.getProperty("replay.seed") != null ? 1 : 40);
        System.out.printf("replay property: %d stream(s), seeds %d..%d%n", iterations, base, base + iterations - 1);
        int withLivePosts = 0;
        for (int i = 0; i < iterations; i++) {
            long seed = base + i;
            try {
                withLivePosts += checkOne(seed) > 0 ? 1 : 0;
            } catch (AssertionError | RuntimeException | IOException e) {
                throw new AssertionError("replay property failed for seed " + seed
                        + " (rerun with -Dreplay.seed=" + seed + "): " + e.getMessage(), e);
            }
        }
        // Not vacuous: most streams leave live posts to compare. One may delete every post it
        // made (seed -7170641232807940876 does): that stream is checked all the same, and a
        // rerun of one seed reproduces the property, not this count.
        if (iterations > 1) {
            assertThat(withLivePosts).as("streams that leave live posts to compare").isGreaterThan(iterations / 2);
        }
    }

    /** Checks one recorded stream; returns how many live posts it leaves. */
    private int checkOne(long seed) throws IOException {
        Random random = new Random(seed);
        List<Recorded> history = new StreamRecorder(random).record(30 + random.nextInt(20));
        List<ConsumerRecord<String, String>> recorded = history.stream().map(Recorded::record).toList();
        Path run = Files.createTempDirectory(scratch(), "hanwiki-replay-");
        runs.add(run);

        Map<Long, String> clean;
        try (PostIndex index = open(run.resolve("clean"))) {
            PostChangeApplier applier = applier(index);
            for (int from = 0; from < recorded.size(); from += 50) {
                applier.apply(recorded.subList(from, Math.min(recorded.size(), from + 50)));
                index.writer().refresh();
            }
            clean = liveDocuments(index, run.resolve("clean"));
        }

        List<ConsumerRecord<String, String>> delivered = deliver(history, random);
        Map<Long, String> perturbed = consumeWithCrashes(delivered, run.resolve("perturbed"), random);

        assertThat(perturbed).as("live posts after %d delivered records (%d recorded)", delivered.size(), recorded.size())
                .isEqualTo(clean);
        return clean.size();
    }

    private PostChangeApplier applier(PostIndex index) {
        return new PostChangeApplier(index, parser, (poison, reason) -> {
            throw new AssertionError("recorded stream has an unreadable record: " + reason);
        }, CLOCK);
    }

    /**
     * The topic as at-least-once delivery leaves it: each recorded event, sometimes twice in a
     * row; sometimes followed by a connector replay of the last few events (it restarted from
     * an older source offset); sometimes followed by a late copy of an upsert that a newer
     * version or a delete of the same post has superseded.
     */
    private static List<ConsumerRecord<String, String>> deliver(List<Recorded> recorded, Random random) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        for (int i = 0; i < recorded.size(); i++) {
            out.add(recorded.get(i).record());
            double roll = random.nextDouble();
            if (roll < 0.10) {
                out.add(recorded.get(i).record());
            } else if (roll < 0.18) {
                recorded.subList(Math.max(0, i - 1 - random.nextInt(12)), i + 1).forEach(r -> out.add(r.record()));
            } else if (roll < 0.40) {
                int late = supersededUpsert(recorded, i, random);
                if (late >= 0) {
                    out.add(recorded.get(late).record());
                }
            }
        }
        List<ConsumerRecord<String, String>> topic = new ArrayList<>(out.size());
        for (int offset = 0; offset < out.size(); offset++) {
            topic.add(new ConsumerRecord<>(TOPIC, 0, offset, out.get(offset).key(), out.get(offset).value()));
        }
        return topic;
    }

    /** Index of an upsert at or before {@code upTo} that a later event of its post up to {@code upTo} outdates, or -1. */
    private static int supersededUpsert(List<Recorded> recorded, int upTo, Random random) {
        for (int attempt = 0; attempt < 8; attempt++) {
            int j = random.nextInt(upTo + 1);
            Recorded candidate = recorded.get(j);
            if (candidate.delete()) {
                continue;
            }
            for (int m = j + 1; m <= upTo; m++) {
                Recorded later = recorded.get(m);
                if (later.postId() == candidate.postId() && (later.delete() || later.version() > candidate.version())) {
                    return j;
                }
            }
        }
        return -1;
    }

    /** A recorded event with what the recorder knows about it: whose, which row version, a delete or not. */
    private record Recorded(ConsumerRecord<String, String> record, long postId, long version, boolean delete) {
    }

    /**
     * The consumer loop's contract, with restarts: apply a poll-sized batch, refresh, sometimes
     * commit the index with the next offset; sometimes stop gracefully (close commits), sometimes
     * crash (nothing since the last commit survives); restart from the committed offsets.
     */
    private Map<Long, String> consumeWithCrashes(List<ConsumerRecord<String, String>> topic, Path path, Random random)
            throws IOException {
        PostIndex index = open(path);
        long position = 0;
        try {
            while (position < topic.size()) {
                int end = (int) Math.min(topic.size(), position + 1 + random.nextInt(20));
                applier(index).apply(topic.subList((int) position, end));
                index.writer().refresh();
                position = end;
                double roll = random.nextDouble();
                if (roll < 0.5) {
                    index.writer().commit(OffsetKeys.encode(TOPIC, Map.of(0, position)));
                }
                if (roll < 0.1) {
                    index.close();
                } else if (roll > 0.85) {
                    index.closeWithoutCommit();
                }
                if (!index.isOpen()) {
                    index = open(path);
                    position = OffsetKeys.decode(TOPIC, index.committedUserData()).getOrDefault(0, 0L);
                }
            }
            return liveDocuments(index, path);
        } finally {
            index.close();
        }
    }

    /**
     * Every live post as indexed: id -> version, title, content, category and popularity bucket.
     * Read after a graceful close and a reopen that writes held counter changes at its first
     * refresh: the close's commit records the ones not written yet (their user data), and this
     * reads what that commit holds.
     */
    private Map<Long, String> liveDocuments(PostIndex index, Path path) throws IOException {
        index.close();
        try (PostIndex reopened = new PostIndex(SearchSettings.at(path).withCounterWriteInterval(java.time.Duration.ZERO), analysis)) {
            reopened.writer().refresh();
            return read(reopened);
        }
    }

    private static Map<Long, String> read(PostIndex index) throws IOException {
        Map<Long, String> docs = new TreeMap<>();
        IndexSearcher searcher = index.acquire();
        try {
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                Bits live = leaf.reader().getLiveDocs();
                NumericDocValues buckets = leaf.reader().getNumericDocValues("popularityBucket");
                for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                    if (live != null && !live.get(doc)) {
                        continue;
                    }
                    Document stored = leaf.reader().storedFields().document(doc);
                    long bucket = buckets != null && buckets.advanceExact(doc) ? buckets.longValue() : -1;
                    String previous = docs.put(Long.parseLong(stored.get("id")), "v" + stored.get("version") + " "
                            + stored.get("title") + " | " + stored.get("content") + " | cat " + stored.get("categoryId")
                            + " | bucket " + bucket);
                    assertThat(previous).as("one live document per post id").isNull();
                }
            }
        } finally {
            index.release(searcher);
        }
        return docs;
    }

    /** Records what Debezium would write for a random but realistic life of some posts. */
    private static final class StreamRecorder {

        private final Random random;
        private final Map<Long, Row> rows = new HashMap<>();
        private final List<Recorded> events = new ArrayList<>();
        private long nextId = 1;
        private long clockMicros = DebeziumEvents.CREATED_MICROS;

        StreamRecorder(Random random) {
            this.random = random;
        }

        List<Recorded> record(int posts) {
            for (int step = 0; step < posts * 4; step++) {
                clockMicros += 1_000 + random.nextInt(50_000);
                List<Row> live = rows.values().stream().filter(r -> r.deletedAt == null).toList();
                int roll = random.nextInt(100);
                if (nextId <= posts && (live.isEmpty() || roll < 25)) {
                    create();
                } else if (live.isEmpty()) {
                    break;
                } else {
                    Row row = live.get(random.nextInt(live.size()));
                    if (roll < 50) {
                        edit(row);
                    } else if (roll < 65) {
                        counters(row, random.nextBoolean() || row.likes == 0 ? 1 : -1, 0);
                    } else if (roll < 80) {
                        counters(row, 0, 1 + random.nextInt(random.nextInt(10) == 0 ? 500 : 5));
                    } else if (roll < 85) {
                        softDelete(row);
                    } else if (roll < 90) {
                        hardDelete(row);
                    } else {
                        edit(row);
                    }
                }
                if (roll >= 98) {
                    rows.values().stream().filter(r -> r.deletedAt != null).findAny().ifPresent(this::hardDelete);
                }
            }
            return events;
        }

        private void create() {
            Row row = new Row(nextId++, words(2), words(6), random.nextInt(3) == 0 ? null : (long) (1 + random.nextInt(5)),
                    clockMicros);
            rows.put(row.id, row);
            emit(row, DebeziumEvents.event("c", null, row.json()), false);
        }

        private void edit(Row row) {
            String before = row.json();
            row.title = random.nextBoolean() ? words(2) : row.title;
            row.content = words(6);
            row.categoryId = random.nextInt(5) == 0 ? Long.valueOf(1 + random.nextInt(5)) : row.categoryId;
            row.version++;
            row.updatedAt = clockMicros;
            emit(row, DebeziumEvents.event("u", before, row.json()), false);
        }

        private void counters(Row row, int likes, int views) {
            String before = row.json();
            row.likes += likes;
            row.views += views;
            emit(row, DebeziumEvents.event("u", before, row.json()), false);
        }

        private void softDelete(Row row) {
            String before = row.json();
            row.deletedAt = clockMicros;
            row.updatedAt = clockMicros;
            row.version++;
            emit(row, DebeziumEvents.event("u", before, row.json()), true);
        }

        private void hardDelete(Row row) {
            emit(row, DebeziumEvents.event("d", row.json(), null), true);
            emit(row, null, true); // the Kafka tombstone Debezium writes after a delete
            rows.remove(row.id);
        }

        private void emit(Row row, String value, boolean delete) {
            events.add(new Recorded(new ConsumerRecord<>(TOPIC, 0, events.size(), DebeziumEvents.key(row.id), value),
                    row.id, row.version, delete));
        }

        private String words(int count) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < count; i++) {
                text.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
            return text.toString();
        }
    }

    /** One row of the posts table as the recorder evolves it. */
    private static final class Row {
        final long id;
        final long createdAt;
        String title;
        String content;
        Long categoryId;
        long version = 1;
        long likes;
        long views;
        long updatedAt;
        Long deletedAt;

        Row(long id, String title, String content, Long categoryId, long createdAt) {
            this.id = id;
            this.title = title;
            this.content = content;
            this.categoryId = categoryId;
            this.createdAt = createdAt;
            this.updatedAt = createdAt;
        }

        String json() {
            return """
                    {"id":%d,"title":"%s","content":"%s","category_id":%s,"author_id":1,"view_count":%d,"like_count":%d,\
                    "version":%d,"created_at":%d,"updated_at":%d,"deleted_at":%s}"""
                    .formatted(id, title, content, categoryId, views, likes, version, createdAt, updatedAt, deletedAt);
        }
    }
}
