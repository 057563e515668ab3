package dev.hanwiki.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Matches;
import org.apache.lucene.search.MatchesIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;

/**
 * Snippets of about {@value #MAX_CHARS} characters around the matches, hits wrapped in
 * {@code <b>}. Matches come from Lucene's Matches API over the body's postings, which store
 * offsets: no page is re-analysed to find them (re-running Nori over ten 2.5 KB pages would
 * cost more than the whole search). The window is the one that holds the most distinct matched
 * words. The page text is HTML-escaped piece by piece and only our own {@code <b>} tags are
 * added, so content is never returned as markup: {@code <script>} comes back as
 * {@code &lt;script&gt;}. A page matched only by its title gets its opening lines.
 */
final class Snippets {

    static final int MAX_CHARS = 150;
    /** Context kept before the first match of the window. */
    private static final int LEAD = 24;
    /** Offsets read per page at most: enough to choose a window, bounded for huge pages. */
    private static final int MAX_MATCHES = 256;
    private static final String ELLIPSIS = "…";

    private final Weight weight;
    private final List<LeafReaderContext> leaves;

    private Snippets(Weight weight, List<LeafReaderContext> leaves) {
        this.weight = weight;
        this.leaves = leaves;
    }

    /** Snippets for hits of one search; {@code highlight} may be null (no body words to mark). */
    static Snippets forQuery(IndexSearcher searcher, Query highlight) throws IOException {
        if (highlight == null) {
            return new Snippets(null, List.of());
        }
        Weight weight = searcher.createWeight(searcher.rewrite(highlight), ScoreMode.COMPLETE_NO_SCORES, 1f);
        return new Snippets(weight, searcher.getIndexReader().leaves());
    }

    /** The snippet of document {@code doc} (a top-level doc id) whose body is {@code content}. */
    String of(int doc, String content) throws IOException {
        if (content == null || content.isEmpty()) {
            return "";
        }
        List<int[]> hits = weight == null ? List.of() : matches(doc);
        return hits.isEmpty() ? plain(content) : around(content, hits);
    }

    /** Offsets [start, end) of the body's matches, in order, overlaps merged. */
    private List<int[]> matches(int doc) throws IOException {
        LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        Matches matches = weight.matches(leaf, doc - leaf.docBase);
        if (matches == null) {
            return List.of();
        }
        MatchesIterator it = matches.getMatches(PostFields.CONTENT);
        if (it == null) {
            return List.of();
        }
        List<int[]> out = new ArrayList<>();
        while (out.size() < MAX_MATCHES && it.next()) {
            int start = it.startOffset();
            int end = it.endOffset();
            if (start >= 0 && end > start) {
                out.add(new int[] {start, end});
            }
        }
        out.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(b[1], a[1]));
        List<int[]> merged = new ArrayList<>(out.size());
        for (int[] m : out) {
            int[] last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && m[0] < last[1]) {
                last[1] = Math.max(last[1], m[1]);
            } else {
                merged.add(m);
            }
        }
        return merged;
    }

    private static String around(String content, List<int[]> hits) {
        int length = content.length();
        // The window start (one per match) that covers the most distinct matched words.
        int best = 0;
        int bestScore = -1;
        for (int i = 0; i < hits.size(); i++) {
            int windowEnd = hits.get(i)[0] + MAX_CHARS - LEAD;
            Set<String> words = new HashSet<>();
            for (int j = i; j < hits.size() && hits.get(j)[1] <= windowEnd; j++) {
                words.add(content.substring(hits.get(j)[0], hits.get(j)[1]).toLowerCase());
            }
            if (words.size() > bestScore) {
                bestScore = words.size();
                best = i;
            }
        }
        int first = hits.get(best)[0];
        int start = Math.max(0, first - LEAD);
        if (start > 0) {
            int space = lastWhitespace(content, start, first);
            start = space >= 0 ? space + 1 : start;
        }
        if (length - start < MAX_CHARS) {
            start = Math.max(0, Math.min(start, length - MAX_CHARS));
        }
        int end = Math.min(length, start + MAX_CHARS);
        for (int[] h : hits) {
            if (h[0] < end && h[1] > end) {
                end = h[0] > start ? h[0] : h[1]; // never cut a highlighted word in two
            }
        }
        if (end < length) {
            int space = lastWhitespace(content, Math.max(start, end - 16), end);
            end = space > start ? space : end;
        }
        start = codePointStart(content, start);
        end = codePointStart(content, end);

        StringBuilder out = new StringBuilder(MAX_CHARS * 2);
        if (start > 0) {
            out.append(ELLIPSIS);
        }
        int at = start;
        for (int[] h : hits) {
            if (h[1] <= start || h[0] >= end) {
                continue;
            }
            int s = Math.max(h[0], start);
            int e = Math.min(h[1], end);
            appendEscaped(out, content, at, s);
            out.append("<b>");
            appendEscaped(out, content, s, e);
            out.append("</b>");
            at = e;
        }
        appendEscaped(out, content, at, end);
        if (end < length) {
            out.append(ELLIPSIS);
        }
        return out.toString().strip();
    }

    /** The opening of the page, escaped: for hits without body matches. */
    static String plain(String content) {
        if (content == null || content.isBlank()) {
            return "";
        }
        String text = content.strip();
        int end = text.length();
        boolean cut = text.codePointCount(0, text.length()) > MAX_CHARS;
        if (cut) {
            end = text.offsetByCodePoints(0, MAX_CHARS);
        }
        StringBuilder out = new StringBuilder(end + 16);
        appendEscaped(out, text, 0, end);
        String snippet = out.toString().strip();
        return cut ? snippet + ELLIPSIS : snippet;
    }

    private static int lastWhitespace(String s, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static int codePointStart(String s, int i) {
        return i > 0 && i < s.length() && Character.isLowSurrogate(s.charAt(i)) && Character.isHighSurrogate(s.charAt(i - 1)) ? i - 1 : i;
    }

    /** Appends {@code s[from, to)} HTML-escaped, with each run of whitespace as one space. */
    static void appendEscaped(StringBuilder out, String s, int from, int to) {
        boolean space = false;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                space = true;
                continue;
            }
            if (space) {
                if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
                    out.append(' ');
                }
                space = false;
            }
            appendEscaped(out, c);
        }
        if (space && to < s.length() && !out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }

    static String escapeHtml(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            appendEscaped(out, text.charAt(i));
        }
        return out.toString();
    }

    private static void appendEscaped(StringBuilder out, char c) {
        switch (c) {
            case '<' -> out.append("&lt;");
            case '>' -> out.append("&gt;");
            case '&' -> out.append("&amp;");
            case '"' -> out.append("&quot;");
            case '\'' -> out.append("&#39;");
            default -> out.append(c);
        }
    }
}
