package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The thin end-to-end path: a write through nginx lands in the primary, flows through the
 * binlog, Debezium and Kafka, and each node indexes it for itself. Both nodes are queried
 * directly, so a node that missed the change cannot hide behind the other.
 */
class WriteToSearchIT {

    private static final Duration FRESH = Duration.ofSeconds(2);

    @Test
    void createdPostBecomesSearchableOnBothNodesWithinTwoSeconds() {
        String word = Search.uniqueWord();
        long id = Search.create("경복궁 산책 " + word, "서울 종로구의 궁궐을 걸었다. " + word + " 기록.");
        long acknowledged = System.nanoTime();

        Duration[] took = Eventually.onBothNodes(FRESH, acknowledged, "post " + id + " searchable",
                node -> Search.idsOn(node, word).equals(java.util.List.of(id)));
        System.out.printf("write to searchable: node1 %d ms, node2 %d ms%n", took[1].toMillis(), took[2].toMillis());
        // Korean words of the page find it too, on both nodes.
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(FRESH, "Korean search on node" + node,
                    () -> Search.idsOn(node, "경복궁 " + word).contains(id));
        }
    }

    /**
     * A page loaded straight into the database with its original date (the demo seed, an import)
     * is indexed like any other, and that date is not taken for its write time: the nodes'
     * write-to-searchable histogram, which the WriteToSearchSlow alert reads, does not record it
     * as years late.
     */
    @Test
    void aPageLoadedWithItsOriginalDateIsNotCountedYearsLate() throws SQLException {
        String word = Search.uniqueWord();
        double[] beyondBefore = {0, beyondTheHistogram(1), beyondTheHistogram(2)};
        long id;
        try (Connection c = Stack.primary(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO posts (title, content, category_id, author_id, version, created_at, updated_at) "
                        + "VALUES (?, ?, NULL, ?, 1, '2022-03-01 09:00:00.250000', '2022-03-01 09:00:00.250000')",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, "옛 글 " + word);
            ps.setString(2, "2022년에 쓴 글을 옮겨 왔다 " + word);
            ps.setLong(3, Users.shared().id);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                id = keys.getLong(1);
            }
        }
        long loaded = System.nanoTime();
        Eventually.onBothNodes(FRESH, loaded, "loaded post " + id + " searchable",
                node -> Search.idsOn(node, word).equals(List.of(id)));

        for (int n = 1; n <= 2; n++) {
            assertThat(beyondTheHistogram(n) - beyondBefore[n])
                    .as("node%d's write-to-searchable observations beyond its histogram's last bucket (minutes)", n)
                    .isZero();
        }
    }

    /**
     * Observations of node {@code n}'s write-to-searchable histogram beyond its largest finite
     * bucket (a few minutes): counted before and after, so that a stack that indexed a large
     * seed before this test (whose real lag can exceed that) does not fail it.
     */
    private static double beyondTheHistogram(int n) {
        List<NodeMetrics.Sample> buckets = NodeMetrics.samples(NodeMetrics.scrape(n).body(),
                "hanwiki_indexer_visibility_lag_seconds_bucket");
        assertThat(buckets).as("node%d exposes hanwiki_indexer_visibility_lag_seconds_bucket", n).isNotEmpty();
        double all = buckets.stream().filter(b -> b.labels().contains("le=\"+Inf\"")).mapToDouble(NodeMetrics.Sample::value).sum();
        double finite = buckets.stream().filter(b -> !b.labels().contains("le=\"+Inf\"")).mapToDouble(NodeMetrics.Sample::value).max().orElse(0);
        return all - finite;
    }

    @Test
    void editReplacesTheIndexedTextOnBothNodes() {
        String before = Search.uniqueWord();
        String after = Search.uniqueWord();
        long id = Search.create("편집 전 " + before, "처음 내용 " + before);
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(FRESH, "original on node" + node, () -> Search.idsOn(node, before).contains(id));
        }

        var r = Users.shared().put(Stack.api() + "/posts/" + id,
                Map.of("title", "편집 후 " + after, "content", "고친 내용 " + after, "version", 1));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        long acknowledged = System.nanoTime();
        assertThat(r.data().path("version").asLong()).isEqualTo(2);

        Eventually.onBothNodes(FRESH, acknowledged, "edit visible",
                node -> Search.idsOn(node, after).equals(java.util.List.of(id)) && Search.idsOn(node, before).isEmpty());
        assertThat(Search.indexOn(1).get(id)).isEqualTo(2L);
        assertThat(Search.indexOn(2).get(id)).isEqualTo(2L);
    }

    @Test
    void deleteRemovesThePostFromBothNodes() {
        String word = Search.uniqueWord();
        long id = Search.create("지울 글 " + word, "곧 삭제된다 " + word);
        for (int n = 1; n <= 2; n++) {
            int node = n;
            Eventually.within(FRESH, "post on node" + node, () -> Search.idsOn(node, word).contains(id));
        }

        assertThat(Users.shared().delete(Stack.api() + "/posts/" + id).status()).isEqualTo(204);
        long acknowledged = System.nanoTime();

        Eventually.onBothNodes(FRESH, acknowledged, "post gone",
                node -> Search.idsOn(node, word).isEmpty() && !Search.indexOn(node).containsKey(id));
        Eventually.within(FRESH, "detail answers 404 once the replica has the delete",
                () -> Http.get(Stack.api() + "/posts/" + id).status() == 404);
    }

    @Test
    void detailReadFromTheReplicaShowsTheCreatedPost() {
        String word = Search.uniqueWord();
        long id = Search.create("상세 " + word, "본문 " + word);
        Eventually.within(FRESH, "detail on the replica", () -> Http.get(Stack.api() + "/posts/" + id).status() == 200);
        var detail = Http.get(Stack.api() + "/posts/" + id).data();
        assertThat(detail.path("title").asString()).isEqualTo("상세 " + word);
        assertThat(detail.path("content").asString()).isEqualTo("본문 " + word);
        assertThat(detail.path("version").asLong()).isEqualTo(1);
        assertThat(detail.path("authorNickname").asString()).isNotBlank();
    }
}
