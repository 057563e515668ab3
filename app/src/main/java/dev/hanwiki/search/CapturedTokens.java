package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PayloadAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.AttributeFactory;
import org.apache.lucene.util.BytesRef;

/**
 * One field's tokens as the IndexWriter would see them, captured on one thread and replayed on
 * another (ADR 0097): exactly the attributes its indexing chain reads ({@code FieldInvertState}):
 * the term bytes ({@link TermToBytesRefAttribute}), the position increment, the start and end
 * offsets, the term frequency and the payload, plus the position increment and offsets that
 * {@code end()} reports (the chain adds them after the last token). Nothing else an analyzer sets
 * (part of speech, type, keyword flags) reaches the index, so nothing else is kept.
 * <p>
 * Why not Lucene's {@code CachingTokenFilter}: it keeps a clone of every attribute of the chain
 * per token (Nori's part of speech and reading included: hundreds of bytes a token for a batch of
 * 500 pages), and it replays into the chain's own attribute instances, which the analyzer reuses
 * for the next page on the thread that captured them. Here a token costs its term's UTF-8 bytes and
 * four or five bytes of variable-length integers, in one immutable array that any thread may replay.
 * <p>
 * Per token: {@code vInt (termLength << 1 | extra)}, the term bytes, {@code zInt} position
 * increment, {@code zInt} start offset minus the previous token's, {@code zInt} end minus start
 * offset; if {@code extra}: {@code zInt} term frequency, {@code vInt} payload length and its bytes.
 * Values are kept as the chain set them, even ones the IndexWriter refuses (offsets going
 * backwards): it refuses them the same way when they are replayed.
 */
final class CapturedTokens {

    private final byte[] data;
    private final int count;
    private final int finalPositionIncrement;
    private final int finalStartOffset;
    private final int finalEndOffset;

    private CapturedTokens(byte[] data, int count, int finalPositionIncrement, int finalStartOffset, int finalEndOffset) {
        this.data = data;
        this.count = count;
        this.finalPositionIncrement = finalPositionIncrement;
        this.finalStartOffset = finalStartOffset;
        this.finalEndOffset = finalEndOffset;
    }

    /** The tokens {@code analyzer} makes of {@code text} in {@code field}, as the IndexWriter asks for them. */
    static CapturedTokens capture(Analyzer analyzer, String field, String text) {
        try (TokenStream stream = analyzer.tokenStream(field, text)) {
            return capture(stream);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Consumes {@code stream} the way the IndexWriter does (reset, every token, end); the caller closes it. */
    static CapturedTokens capture(TokenStream stream) throws IOException {
        // The attributes FieldInvertState reads, obtained the same way (add or get).
        TermToBytesRefAttribute term = stream.getAttribute(TermToBytesRefAttribute.class);
        TermFrequencyAttribute frequency = stream.addAttribute(TermFrequencyAttribute.class);
        PositionIncrementAttribute increment = stream.addAttribute(PositionIncrementAttribute.class);
        OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
        PayloadAttribute payload = stream.getAttribute(PayloadAttribute.class);
        ByteBuffersDataOutput out = new ByteBuffersDataOutput();
        stream.reset();
        int count = 0;
        int lastStart = 0;
        while (stream.incrementToken()) {
            BytesRef bytes = term.getBytesRef();
            BytesRef payloadBytes = payload == null ? null : payload.getPayload();
            boolean hasPayload = payloadBytes != null && payloadBytes.length > 0;
            boolean extra = hasPayload || frequency.getTermFrequency() != 1;
            out.writeVInt(bytes.length << 1 | (extra ? 1 : 0));
            out.writeBytes(bytes.bytes, bytes.offset, bytes.length);
            out.writeZInt(increment.getPositionIncrement());
            out.writeZInt(offset.startOffset() - lastStart);
            out.writeZInt(offset.endOffset() - offset.startOffset());
            lastStart = offset.startOffset();
            if (extra) {
                out.writeZInt(frequency.getTermFrequency());
                // An empty payload is indexed as none (FreqProxTermsWriterPerField): kept as none.
                out.writeVInt(hasPayload ? payloadBytes.length : 0);
                if (hasPayload) {
                    out.writeBytes(payloadBytes.bytes, payloadBytes.offset, payloadBytes.length);
                }
            }
            count++;
        }
        stream.end();
        return new CapturedTokens(out.toArrayCopy(), count, increment.getPositionIncrement(), offset.startOffset(),
                offset.endOffset());
    }

    /** How many tokens were captured. */
    int size() {
        return count;
    }

    /** Bytes held (the encoded tokens). */
    int bytes() {
        return data.length;
    }

    /** Calls {@code action} with each captured term's bytes, in order (the same instance, refilled: copy to keep). */
    void forEachTerm(Consumer<BytesRef> action) {
        ByteArrayDataInput in = new ByteArrayDataInput(data);
        BytesRef bytes = new BytesRef(data);
        try {
            forEachTerm(in, bytes, action);
        } catch (IOException e) {
            throw new UncheckedIOException("reading tokens from memory", e); // DataInput's signature only
        }
    }

    private void forEachTerm(ByteArrayDataInput in, BytesRef bytes, Consumer<BytesRef> action) throws IOException {
        for (int i = 0; i < count; i++) {
            int header = in.readVInt();
            bytes.offset = in.getPosition();
            bytes.length = header >>> 1;
            action.accept(bytes);
            in.skipBytes(bytes.length);
            in.readZInt(); // position increment
            in.readZInt(); // start offset
            in.readZInt(); // length
            if ((header & 1) != 0) {
                in.readZInt(); // term frequency
                in.skipBytes(in.readVInt()); // payload
            }
        }
    }

    /** A new stream over the captured tokens, for one {@code Field}; any thread, any number of times. */
    TokenStream replay() {
        return new Replay();
    }

    /**
     * Plays the tokens back with plain attribute implementations (not the packed token of the
     * analysis chains, which would bring a second term attribute): the term as bytes.
     */
    private final class Replay extends TokenStream {

        private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
        private final TermFrequencyAttribute frequency = addAttribute(TermFrequencyAttribute.class);
        private final PositionIncrementAttribute increment = addAttribute(PositionIncrementAttribute.class);
        private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
        private final PayloadAttribute payload = addAttribute(PayloadAttribute.class);
        private final ByteArrayDataInput in = new ByteArrayDataInput();
        private final BytesRef bytes = new BytesRef(data);
        private int read;
        private int lastStart;

        Replay() {
            super(AttributeFactory.DEFAULT_ATTRIBUTE_FACTORY);
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            in.reset(data);
            read = 0;
            lastStart = 0;
        }

        @Override
        public boolean incrementToken() throws IOException {
            if (read == count) {
                return false;
            }
            clearAttributes();
            int header = in.readVInt();
            bytes.offset = in.getPosition();
            bytes.length = header >>> 1;
            term.setBytesRef(bytes);
            in.skipBytes(bytes.length);
            increment.setPositionIncrement(in.readZInt());
            int start = lastStart + in.readZInt();
            offset.setOffset(start, start + in.readZInt());
            lastStart = start;
            if ((header & 1) != 0) {
                frequency.setTermFrequency(in.readZInt());
                int length = in.readVInt();
                if (length > 0) {
                    payload.setPayload(new BytesRef(data, in.getPosition(), length));
                    in.skipBytes(length);
                }
            }
            read++;
            return true;
        }

        @Override
        public void end() throws IOException {
            super.end();
            increment.setPositionIncrement(finalPositionIncrement);
            offset.setOffset(finalStartOffset, finalEndOffset);
        }
    }
}
