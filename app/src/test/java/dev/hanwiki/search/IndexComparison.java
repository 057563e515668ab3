package dev.hanwiki.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Compares two indexes segment by segment and document by document: field infos, live documents,
 * every term of every field (document frequency, total term frequency) and its postings (documents,
 * frequencies, positions, start and end offsets, payloads), norms, stored fields (in order, with
 * their types), doc values of every kind and the points' bounds. For tests that require two ways
 * of writing to give the same index; the first difference comes back as a sentence.
 */
public final class IndexComparison {

    private IndexComparison() {
    }

    /** The first difference between {@code expected} and {@code actual}, or null if there is none. */
    public static String firstDifference(IndexReader expected, IndexReader actual) throws IOException {
        if (expected.leaves().size() != actual.leaves().size()) {
            return "segments: " + expected.leaves().size() + " expected, " + actual.leaves().size() + " found";
        }
        for (int i = 0; i < expected.leaves().size(); i++) {
            String difference = leafDifference(expected.leaves().get(i).reader(), actual.leaves().get(i).reader());
            if (difference != null) {
                return "segment " + i + ": " + difference;
            }
        }
        return null;
    }

    private static String leafDifference(LeafReader expected, LeafReader actual) throws IOException {
        if (expected.maxDoc() != actual.maxDoc() || expected.numDocs() != actual.numDocs()) {
            return "documents: " + expected.numDocs() + "/" + expected.maxDoc() + " expected, "
                    + actual.numDocs() + "/" + actual.maxDoc() + " found (live/max)";
        }
        String difference = liveDocs(expected.getLiveDocs(), actual.getLiveDocs(), expected.maxDoc());
        if (difference != null) {
            return difference;
        }
        List<String> expectedFields = new ArrayList<>();
        List<String> actualFields = new ArrayList<>();
        for (FieldInfo info : expected.getFieldInfos()) {
            expectedFields.add(describe(info));
        }
        for (FieldInfo info : actual.getFieldInfos()) {
            actualFields.add(describe(info));
        }
        if (!expectedFields.equals(actualFields)) {
            return "field infos:\n  expected " + expectedFields + "\n  found    " + actualFields;
        }
        for (FieldInfo info : expected.getFieldInfos()) {
            difference = fieldDifference(info, expected, actual);
            if (difference != null) {
                return "field '" + info.name + "': " + difference;
            }
        }
        for (int doc = 0; doc < expected.maxDoc(); doc++) {
            List<String> a = stored(expected, doc);
            List<String> b = stored(actual, doc);
            if (!a.equals(b)) {
                return "stored fields of doc " + doc + ":\n  expected " + a + "\n  found    " + b;
            }
        }
        return null;
    }

    private static String liveDocs(Bits expected, Bits actual, int maxDoc) {
        for (int doc = 0; doc < maxDoc; doc++) {
            boolean a = expected == null || expected.get(doc);
            boolean b = actual == null || actual.get(doc);
            if (a != b) {
                return "doc " + doc + " is " + (a ? "live" : "deleted") + " expected, " + (b ? "live" : "deleted") + " found";
            }
        }
        return null;
    }

    private static String describe(FieldInfo info) {
        return info.name + "#" + info.number + "[" + info.getIndexOptions() + (info.hasNorms() ? ",norms" : "")
                + (info.hasPayloads() ? ",payloads" : "") + (info.hasTermVectors() ? ",vectors" : "")
                + ",dv=" + info.getDocValuesType() + ",points=" + info.getPointDimensionCount() + "x" + info.getPointNumBytes()
                + ",attributes=" + info.attributes() + "]";
    }

    private static String fieldDifference(FieldInfo info, LeafReader expected, LeafReader actual) throws IOException {
        String field = info.name;
        if (info.getIndexOptions() != IndexOptions.NONE) {
            String difference = termsDifference(info, expected.terms(field), actual.terms(field));
            if (difference != null) {
                return difference;
            }
        }
        if (info.hasNorms()) {
            String difference = numericDifference("norm", expected.getNormValues(field), actual.getNormValues(field));
            if (difference != null) {
                return difference;
            }
        }
        if (info.getDocValuesType() != DocValuesType.NONE) {
            String difference = docValuesDifference(info.getDocValuesType(), field, expected, actual);
            if (difference != null) {
                return difference;
            }
        }
        if (info.getPointDimensionCount() > 0) {
            PointValues a = expected.getPointValues(field);
            PointValues b = actual.getPointValues(field);
            if (a.size() != b.size() || a.getDocCount() != b.getDocCount()
                    || !Arrays.equals(a.getMinPackedValue(), b.getMinPackedValue())
                    || !Arrays.equals(a.getMaxPackedValue(), b.getMaxPackedValue())) {
                return "points differ (size " + a.size() + " vs " + b.size() + ")";
            }
        }
        return null;
    }

    private static String termsDifference(FieldInfo info, Terms expected, Terms actual) throws IOException {
        if (expected == null || actual == null) {
            return expected == actual ? null : "terms: " + (expected == null ? "none" : "some") + " expected, "
                    + (actual == null ? "none" : "some") + " found";
        }
        boolean positions = info.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
        boolean offsets = info.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS) >= 0;
        TermsEnum a = expected.iterator();
        TermsEnum b = actual.iterator();
        PostingsEnum pa = null;
        PostingsEnum pb = null;
        while (true) {
            BytesRef ta = a.next();
            BytesRef tb = b.next();
            if (ta == null || tb == null) {
                if (ta != tb) {
                    return "term " + (ta == null ? "(end)" : term(ta)) + " expected, " + (tb == null ? "(end)" : term(tb)) + " found";
                }
                // Term by term first (the readable difference), then the field's totals.
                if (expected.size() != actual.size() || expected.getSumDocFreq() != actual.getSumDocFreq()
                        || expected.getSumTotalTermFreq() != actual.getSumTotalTermFreq()
                        || expected.getDocCount() != actual.getDocCount()) {
                    return "term statistics: " + stats(expected) + " expected, " + stats(actual) + " found";
                }
                return null;
            }
            if (!ta.equals(tb)) {
                return "term " + term(ta) + " expected, " + term(tb) + " found";
            }
            if (a.docFreq() != b.docFreq() || a.totalTermFreq() != b.totalTermFreq()) {
                return "term " + term(ta) + ": docFreq/totalTermFreq " + a.docFreq() + "/" + a.totalTermFreq()
                        + " expected, " + b.docFreq() + "/" + b.totalTermFreq() + " found";
            }
            pa = a.postings(pa, PostingsEnum.ALL);
            pb = b.postings(pb, PostingsEnum.ALL);
            String difference = postingsDifference(pa, pb, positions, offsets);
            if (difference != null) {
                return "term " + term(ta) + ": " + difference;
            }
        }
    }

    private static String postingsDifference(PostingsEnum a, PostingsEnum b, boolean positions, boolean offsets) throws IOException {
        while (true) {
            int da = a.nextDoc();
            int db = b.nextDoc();
            if (da != db) {
                return "doc " + da + " expected, doc " + db + " found";
            }
            if (da == DocIdSetIterator.NO_MORE_DOCS) {
                return null;
            }
            if (a.freq() != b.freq()) {
                return "doc " + da + ": freq " + a.freq() + " expected, " + b.freq() + " found";
            }
            if (!positions) {
                continue;
            }
            for (int i = 0; i < a.freq(); i++) {
                int posA = a.nextPosition();
                int posB = b.nextPosition();
                String where = "doc " + da + ", occurrence " + (i + 1) + " of " + a.freq() + ": ";
                if (posA != posB) {
                    return where + "position " + posA + " expected, " + posB + " found";
                }
                if (offsets && (a.startOffset() != b.startOffset() || a.endOffset() != b.endOffset())) {
                    return where + "offsets " + a.startOffset() + "-" + a.endOffset() + " expected, "
                            + b.startOffset() + "-" + b.endOffset() + " found";
                }
                if (!Objects.equals(a.getPayload(), b.getPayload())) {
                    return where + "payload " + a.getPayload() + " expected, " + b.getPayload() + " found";
                }
            }
        }
    }

    private static String stats(Terms terms) throws IOException {
        return "terms=" + terms.size() + " sumDocFreq=" + terms.getSumDocFreq() + " sumTotalTermFreq="
                + terms.getSumTotalTermFreq() + " docCount=" + terms.getDocCount();
    }

    private static String term(BytesRef bytes) {
        return "'" + bytes.utf8ToString() + "' " + bytes;
    }

    private static String numericDifference(String what, NumericDocValues a, NumericDocValues b) throws IOException {
        if (a == null || b == null) {
            return a == b ? null : what + "s missing on one side";
        }
        while (true) {
            int da = a.nextDoc();
            int db = b.nextDoc();
            if (da != db) {
                return what + ": doc " + da + " expected, doc " + db + " found";
            }
            if (da == DocIdSetIterator.NO_MORE_DOCS) {
                return null;
            }
            if (a.longValue() != b.longValue()) {
                return what + " of doc " + da + ": " + a.longValue() + " expected, " + b.longValue() + " found";
            }
        }
    }

    private static String docValuesDifference(DocValuesType type, String field, LeafReader expected, LeafReader actual) throws IOException {
        switch (type) {
            case NUMERIC -> {
                return numericDifference("doc value", expected.getNumericDocValues(field), actual.getNumericDocValues(field));
            }
            case BINARY -> {
                BinaryDocValues a = expected.getBinaryDocValues(field);
                BinaryDocValues b = actual.getBinaryDocValues(field);
                return valuesDifference(a, b, () -> a.binaryValue().toString(), () -> b.binaryValue().toString());
            }
            case SORTED -> {
                SortedDocValues a = expected.getSortedDocValues(field);
                SortedDocValues b = actual.getSortedDocValues(field);
                return valuesDifference(a, b, () -> a.lookupOrd(a.ordValue()).toString(), () -> b.lookupOrd(b.ordValue()).toString());
            }
            case SORTED_NUMERIC -> {
                SortedNumericDocValues a = expected.getSortedNumericDocValues(field);
                SortedNumericDocValues b = actual.getSortedNumericDocValues(field);
                return valuesDifference(a, b, () -> sortedNumbers(a), () -> sortedNumbers(b));
            }
            case SORTED_SET -> {
                SortedSetDocValues a = expected.getSortedSetDocValues(field);
                SortedSetDocValues b = actual.getSortedSetDocValues(field);
                return valuesDifference(a, b, () -> sortedSet(a), () -> sortedSet(b));
            }
            default -> {
                return null;
            }
        }
    }

    private interface Value {
        String read() throws IOException;
    }

    private static String valuesDifference(DocIdSetIterator a, DocIdSetIterator b, Value va, Value vb) throws IOException {
        while (true) {
            int da = a.nextDoc();
            int db = b.nextDoc();
            if (da != db) {
                return "doc values: doc " + da + " expected, doc " + db + " found";
            }
            if (da == DocIdSetIterator.NO_MORE_DOCS) {
                return null;
            }
            String x = va.read();
            String y = vb.read();
            if (!x.equals(y)) {
                return "doc values of doc " + da + ": " + x + " expected, " + y + " found";
            }
        }
    }

    private static String sortedNumbers(SortedNumericDocValues values) throws IOException {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.docValueCount(); i++) {
            out.append(values.nextValue()).append(' ');
        }
        return out.toString();
    }

    private static String sortedSet(SortedSetDocValues values) throws IOException {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.docValueCount(); i++) {
            out.append(values.lookupOrd(values.nextOrd())).append(' ');
        }
        return out.toString();
    }

    /** The stored fields of {@code doc} in order: name, type and value. */
    private static List<String> stored(LeafReader reader, int doc) throws IOException {
        List<String> fields = new ArrayList<>();
        reader.storedFields().document(doc, new StoredFieldVisitor() {
            @Override
            public Status needsField(FieldInfo fieldInfo) {
                return Status.YES;
            }

            @Override
            public void stringField(FieldInfo fieldInfo, String value) {
                fields.add(fieldInfo.name + "=string:" + value);
            }

            @Override
            public void binaryField(FieldInfo fieldInfo, byte[] value) {
                fields.add(fieldInfo.name + "=binary:" + Arrays.toString(value));
            }

            @Override
            public void intField(FieldInfo fieldInfo, int value) {
                fields.add(fieldInfo.name + "=int:" + value);
            }

            @Override
            public void longField(FieldInfo fieldInfo, long value) {
                fields.add(fieldInfo.name + "=long:" + value);
            }

            @Override
            public void floatField(FieldInfo fieldInfo, float value) {
                fields.add(fieldInfo.name + "=float:" + value);
            }

            @Override
            public void doubleField(FieldInfo fieldInfo, double value) {
                fields.add(fieldInfo.name + "=double:" + value);
            }
        });
        return fields;
    }
}
