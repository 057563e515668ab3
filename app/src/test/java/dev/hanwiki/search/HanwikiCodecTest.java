package dev.hanwiki.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/** Stored fields written and read back through {@link HanwikiCodec}: every size, merges, old segments. */
class HanwikiCodecTest {

    /** Bodies around and far past the 16 KB chunk (a document larger than a chunk is read in slices). */
    private static final int[] SIZES = {0, 1, 700, 5_000, 16 * 1024 - 40, 16 * 1024, 16 * 1024 + 1, 50_000, 200_000};

    @Test
    void isFoundByNameAsLuceneOpensSegments() {
        assertThat(Codec.forName(HanwikiCodec.NAME)).isInstanceOf(HanwikiCodec.class);
        assertThat(HanwikiCodec.get().getName()).isEqualTo("Hanwiki104");
    }

    @Test
    void readsBackEveryDocumentAfterFlushAndAfterMerging() throws IOException {
        try (Directory dir = new ByteBuffersDirectory()) {
            List<String> bodies = bodies(3);
            try (IndexWriter w = new IndexWriter(dir, config(new HanwikiCodec()))) {
                for (int i = 0; i < bodies.size(); i++) {
                    w.addDocument(doc(i, bodies.get(i)));
                    if (i % 7 == 6) {
                        w.flush(); // several segments, so that the merge below has work
                    }
                }
                w.commit();
                assertStored(dir, bodies);
                assertThat(codecs(dir)).containsOnly(HanwikiCodec.NAME);
                w.forceMerge(1);
                w.commit();
            }
            assertStored(dir, bodies);
            assertThat(codecs(dir)).containsExactly(HanwikiCodec.NAME);
        }
    }

    @Test
    void readsSegmentsOfTheDefaultCodecAndRewritesThemWhenMerged() throws IOException {
        try (Directory dir = new ByteBuffersDirectory()) {
            List<String> bodies = bodies(2);
            int half = bodies.size() / 2;
            try (IndexWriter w = new IndexWriter(dir, config(Codec.getDefault()))) {
                for (int i = 0; i < half; i++) {
                    w.addDocument(doc(i, bodies.get(i)));
                }
                w.commit();
            }
            try (IndexWriter w = new IndexWriter(dir, config(new HanwikiCodec()))) {
                for (int i = half; i < bodies.size(); i++) {
                    w.addDocument(doc(i, bodies.get(i)));
                }
                w.commit();
                assertStored(dir, bodies);
                assertThat(codecs(dir)).contains(Codec.getDefault().getName(), HanwikiCodec.NAME);
                w.forceMerge(1);
                w.commit();
            }
            assertStored(dir, bodies);
            assertThat(codecs(dir)).containsExactly(HanwikiCodec.NAME);
        }
    }

    private static IndexWriterConfig config(Codec codec) {
        return new IndexWriterConfig().setCodec(codec).setUseCompoundFile(false);
    }

    /** Bodies of every size in SIZES, {@code rounds} times, each different (Hangul and ASCII). */
    private static List<String> bodies(int rounds) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            for (int size : SIZES) {
                StringBuilder b = new StringBuilder(size);
                for (int i = 0; b.length() < size; i++) {
                    b.append(i % 3 == 0 ? "서울 " : "page" + r + "-" + i + " ");
                }
                b.setLength(size);
                out.add(b.toString());
            }
        }
        return out;
    }

    private static Document doc(int id, String body) {
        Document d = new Document();
        d.add(new StringField("id", Integer.toString(id), Field.Store.YES));
        d.add(new StoredField("body", body));
        d.add(new StoredField("n", (long) id * 31));
        return d;
    }

    private static void assertStored(Directory dir, List<String> bodies) throws IOException {
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
            assertThat(reader.numDocs()).isEqualTo(bodies.size());
            List<Integer> seen = new ArrayList<>();
            for (LeafReaderContext leaf : reader.leaves()) {
                StoredFields stored = leaf.reader().storedFields();
                // Backwards too, so that a read never relies on where the last one left the file.
                for (int doc = leaf.reader().maxDoc() - 1; doc >= 0; doc--) {
                    Document d = stored.document(doc);
                    int id = Integer.parseInt(d.get("id"));
                    assertThat(d.get("body")).as("body of page %d", id).isEqualTo(bodies.get(id));
                    assertThat(d.getField("n").numericValue().longValue()).isEqualTo(id * 31L);
                    seen.add(id);
                }
            }
            // Each page exactly once: a read that returned another document of its chunk shows here.
            assertThat(seen).containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, bodies.size()).boxed().toList());
        }
    }

    private static List<String> codecs(Directory dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (SegmentCommitInfo info : SegmentInfos.readLatestCommit(dir)) {
            out.add(info.info.getCodec().getName());
        }
        return out;
    }
}
