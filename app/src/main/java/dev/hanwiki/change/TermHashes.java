package dev.hanwiki.change;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A set of 64-bit hashes of indexed terms (field and term bytes; the search index computes them,
 * {@code search.SearchTerms}): what a page new to an index was indexed with, announced so that
 * cached search answers whose query shares none of them may outlive its arrival (ADR 0099). Two
 * different terms may share a hash: then a change seems to touch more answers than it does,
 * never fewer. Immutable; equal when the hashes are.
 */
public final class TermHashes {

    private final long[] sorted;

    private TermHashes(long[] sorted) {
        this.sorted = sorted;
    }

    /** The set of {@code hashes} (copied; duplicates dropped). */
    public static TermHashes of(long... hashes) {
        long[] copy = hashes.clone();
        Arrays.sort(copy);
        int n = 0;
        for (int i = 0; i < copy.length; i++) {
            if (i == 0 || copy[i] != copy[i - 1]) {
                copy[n++] = copy[i];
            }
        }
        return new TermHashes(n == copy.length ? copy : Arrays.copyOf(copy, n));
    }

    public boolean contains(long hash) {
        return Arrays.binarySearch(sorted, hash) >= 0;
    }

    public int size() {
        return sorted.length;
    }

    /** The hashes, ascending (for a cached answer's JSON). */
    public List<Long> toList() {
        return Arrays.stream(sorted).boxed().toList();
    }

    public void forEach(LongConsumer action) {
        for (long hash : sorted) {
            action.accept(hash);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TermHashes other && Arrays.equals(sorted, other.sorted);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sorted);
    }

    @Override
    public String toString() {
        return "TermHashes[" + sorted.length + "]";
    }
}
