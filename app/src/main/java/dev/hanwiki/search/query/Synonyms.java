package dev.hanwiki.search.query;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Query-time synonyms, from a text file (reloadable: a reload builds a new instance).
 * <pre>
 * # equivalent: any of them finds pages with any of them
 * 휴대폰, 핸드폰, 휴대전화
 * # one-way: the left side also finds the right side, not the reverse
 * 폰 => 휴대폰
 * </pre>
 * Every entry is analyzed with the query analyzer, so entries match what queries become
 * (particles, case and stems do not matter) and multi-word entries become phrases. Expanding
 * at query time, not index time, means editing the file changes results at once, without a
 * reindex.
 */
public final class Synonyms {

    public static final Synonyms NONE = new Synonyms(Map.of(), 0);

    private final Map<List<String>, List<List<String>>> alternatives;
    private final int longestEntry;

    private Synonyms(Map<List<String>, List<List<String>>> alternatives, int longestEntry) {
        this.alternatives = alternatives;
        this.longestEntry = longestEntry;
    }

    /**
     * @param analyze the query analyzer as a function from text to its terms
     * @throws IllegalArgumentException naming the first line that cannot be read
     */
    public static Synonyms parse(String text, Function<String, List<String>> analyze) {
        Map<List<String>, Set<List<String>>> map = new HashMap<>();
        int longest = 0;
        String[] lines = text.split("\r?\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int arrow = line.indexOf("=>");
            List<List<String>> left = entries(arrow < 0 ? line : line.substring(0, arrow), analyze);
            List<List<String>> right = arrow < 0 ? left : entries(line.substring(arrow + 2), analyze);
            if (left.isEmpty() || right.isEmpty() || (arrow < 0 && left.size() < 2)) {
                throw new IllegalArgumentException("synonyms line " + (n + 1) + " has nothing to relate: " + line);
            }
            for (List<String> from : left) {
                longest = Math.max(longest, from.size());
                Set<List<String>> to = map.computeIfAbsent(from, k -> new LinkedHashSet<>());
                for (List<String> alt : right) {
                    if (!alt.equals(from)) {
                        to.add(alt);
                    }
                }
            }
        }
        Map<List<String>, List<List<String>>> frozen = new HashMap<>();
        map.forEach((k, v) -> {
            if (!v.isEmpty()) {
                frozen.put(List.copyOf(k), List.copyOf(v));
            }
        });
        return new Synonyms(Map.copyOf(frozen), longest);
    }

    private static List<List<String>> entries(String side, Function<String, List<String>> analyze) {
        List<List<String>> out = new ArrayList<>();
        for (String entry : side.split(",")) {
            List<String> terms;
            try {
                terms = analyze.apply(entry.strip());
            } catch (UncheckedIOException e) {
                throw new IllegalArgumentException("cannot analyze synonym '" + entry + "'", e);
            }
            if (!terms.isEmpty()) {
                out.add(List.copyOf(terms));
            }
        }
        return out;
    }

    /** Alternatives for exactly this term sequence (empty if none). */
    public List<List<String>> of(List<String> terms) {
        return alternatives.getOrDefault(terms, List.of());
    }

    /** Terms in the longest entry: spans longer than this cannot match. */
    public int longestEntry() {
        return longestEntry;
    }

    public int size() {
        return alternatives.size();
    }
}
