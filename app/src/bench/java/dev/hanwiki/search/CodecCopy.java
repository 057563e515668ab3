package dev.hanwiki.search;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * A copy of an index written in a chosen codec and merged to a chosen number of segments, for
 * A/B benchmarks of a storage format on the same pages (ADR 0098: stored fields uncompressed or
 * LZ4). The source is only read (a point-in-time reader of its last commit), so a running
 * node's index can be the source.
 *
 * <pre>java ... dev.hanwiki.search.CodecCopy --index var/node1/index --to DIR --codec hanwiki|default [--segments 1]</pre>
 */
public final class CodecCopy {

    private CodecCopy() {
    }

    public static void main(String[] argv) throws Exception {
        ToolArgs args = ToolArgs.parse(argv);
        Path to = args.path("to", "var/bench/codec-copy");
        String name = args.text("codec", "hanwiki");
        Codec codec = switch (name) {
            case "hanwiki" -> HanwikiCodec.get();
            case "default" -> Codec.getDefault();
            default -> throw new IllegalArgumentException("--codec hanwiki or default, not " + name);
        };
        if (Files.exists(to)) {
            throw new IllegalArgumentException(to + " exists: give a new directory");
        }
        long start = System.nanoTime();
        try (Directory source = FSDirectory.open(args.index());
                DirectoryReader reader = DirectoryReader.open(source);
                Directory target = FSDirectory.open(to);
                IndexWriter writer = new IndexWriter(target, new IndexWriterConfig().setCodec(codec)
                        .setOpenMode(IndexWriterConfig.OpenMode.CREATE))) {
            writer.addIndexes(reader.leaves().stream().map(l -> (CodecReader) l.reader()).toArray(CodecReader[]::new));
            writer.forceMerge(args.number("segments", 1));
            writer.setLiveCommitData(reader.getIndexCommit().getUserData().entrySet());
            writer.commit();
            System.err.printf("copied %,d pages from %s into %s (codec %s, %d segment(s)) in %.1f s%n",
                    reader.numDocs(), args.index(), to, codec.getName(), args.number("segments", 1),
                    (System.nanoTime() - start) / 1e9);
        }
    }
}
