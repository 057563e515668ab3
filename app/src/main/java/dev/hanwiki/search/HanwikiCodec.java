package dev.hanwiki.search;

import java.io.IOException;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.compressing.CompressionMode;
import org.apache.lucene.codecs.compressing.Compressor;
import org.apache.lucene.codecs.compressing.Decompressor;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene90.compressing.Lucene90CompressingStoredFieldsFormat;
import org.apache.lucene.store.ByteBuffersDataInput;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * Lucene's default codec with stored fields kept uncompressed (ADR 0098).
 * <p>
 * A search reads the stored fields of every hit on its page (title, body for the snippet, ids,
 * dates). With the default format each of those reads decompresses LZ4 with a preset
 * dictionary: about a fifth of a search's CPU at 100,000 pages (JFR, docs/bench/search.md).
 * Here a document's bytes are copied, not decoded; stored fields take about a third more disk
 * (LZ4 saves little on Korean text). Everything else (postings, doc values, points) is the
 * default codec's.
 * <p>
 * The name is written into every segment and looked up by name (Java SPI,
 * {@code META-INF/services/org.apache.lucene.codecs.Codec}) when the segment is opened: a
 * build must keep reading every name it ever wrote. Segments of the default codec (indexes
 * written before this codec) stay readable and are rewritten in this one as they merge. When
 * Lucene's default codec changes, add a codec with a new name over it, and keep this one.
 */
public final class HanwikiCodec extends FilterCodec {

    static final String NAME = "Hanwiki104";

    /** Small chunks: a document is found by its chunk, whose header lists every document in it. */
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final int MAX_DOCS_PER_CHUNK = 64;
    private static final int BLOCK_SHIFT = 10;

    private final StoredFieldsFormat storedFields = new Lucene90CompressingStoredFieldsFormat(
            "HanwikiRawStoredFields", Uncompressed.MODE, CHUNK_BYTES, MAX_DOCS_PER_CHUNK, BLOCK_SHIFT);

    /** Public and without arguments: Lucene instantiates codecs through SPI. */
    public HanwikiCodec() {
        super(NAME, new Lucene104Codec());
    }

    @Override
    public StoredFieldsFormat storedFieldsFormat() {
        return storedFields;
    }

    /** This build's codec, as found by name (proves the SPI registration that opening a segment needs). */
    static Codec get() {
        return Codec.forName(NAME);
    }

    /**
     * The "compression" that stores bytes as they are. The stored-fields reader calls
     * {@link Decompressor#decompress} on a chunk of {@code originalLength} bytes and asks for
     * {@code [offset, offset + length)}; for documents larger than a chunk it calls again for
     * the next slice from where the last call left the input, so every call consumes exactly
     * its {@code originalLength} bytes.
     */
    static final class Uncompressed extends CompressionMode {

        static final CompressionMode MODE = new Uncompressed();

        private Uncompressed() {
        }

        @Override
        public Compressor newCompressor() {
            return new Compressor() {
                @Override
                public void compress(ByteBuffersDataInput in, DataOutput out) throws IOException {
                    out.copyBytes(in, in.length());
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public Decompressor newDecompressor() {
            return new Copy();
        }

        @Override
        public String toString() {
            return "UNCOMPRESSED";
        }
    }

    private static final class Copy extends Decompressor {
        @Override
        public void decompress(DataInput in, int originalLength, int offset, int length, BytesRef bytes) throws IOException {
            if (offset < 0 || length < 0 || offset + length > originalLength) {
                throw new IllegalArgumentException("slice [" + offset + ", " + (offset + length) + ") outside "
                        + originalLength + " stored bytes");
            }
            in.skipBytes(offset);
            bytes.bytes = ArrayUtil.growNoCopy(bytes.bytes, length);
            in.readBytes(bytes.bytes, 0, length);
            bytes.offset = 0;
            bytes.length = length;
            in.skipBytes(originalLength - offset - length);
        }

        @Override
        public Decompressor clone() {
            return this;
        }
    }
}
