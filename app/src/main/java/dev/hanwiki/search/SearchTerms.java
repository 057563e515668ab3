package dev.hanwiki.search;

import dev.hanwiki.change.TermHashes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Which new pages can change a search's answer (ADR 0099). A page new to the index can enter an
 * answer (its hits, its count, its facets) only by matching the query, and it can match only if
 * it holds one of the query's <em>triggers</em>: a set of terms such that every matching document
 * contains at least one. Both sides are kept as 64-bit hashes of field and term bytes, so that the
 * indexer announces a page's terms without strings ({@link PreAnalyzedPost#termHashes()}).
 * <p>
 * A query shape this does not know (match-all, ranges, fuzzy, anything not term or phrase) has no
 * triggers: every change may alter it.
 */
final class SearchTerms {

    private static final long[] NONE = new long[0];

    private SearchTerms() {
    }

    /** The hash of one indexed term: FNV-1a over the field's UTF-8 bytes, a zero, the term's bytes, then mixed. */
    static long hash(String field, BytesRef term) {
        long h = 0xcbf29ce484222325L;
        for (byte b : field.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h *= 0x100000001b3L; // the separator, a zero byte
        for (int i = term.offset, end = term.offset + term.length; i < end; i++) {
            h = (h ^ (term.bytes[i] & 0xff)) * 0x100000001b3L;
        }
        // murmur3's finalizer: FNV's low bits mix poorly
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    static long hash(Term term) {
        return hash(term.field(), term.bytes());
    }

    /**
     * Hashes of terms one of which every document matching {@code query} contains (empty: it
     * matches nothing), or null when no such set is known.
     */
    static TermHashes triggers(Query query) {
        long[] hashes = of(query);
        return hashes == null ? null : TermHashes.of(hashes);
    }

    private static long[] of(Query query) {
        return switch (query) {
            case TermQuery t -> new long[] {hash(t.getTerm())};
            // A match holds every term of the phrase: all of them, in case one is a stop-word gap.
            case PhraseQuery p -> Arrays.stream(p.getTerms()).mapToLong(SearchTerms::hash).toArray();
            case BoostQuery b -> of(b.getQuery());
            case MatchNoDocsQuery n -> NONE;
            case BooleanQuery b -> ofBoolean(b);
            default -> null;
        };
    }

    /**
     * A match satisfies every required clause (MUST, FILTER), so the triggers of any one of them
     * will do: the smallest known set. Optional clauses beside required ones (the ranking boosts)
     * add no matches unless a minimum of them must match. Without required clauses a match
     * satisfies one optional clause: the union of theirs. Prohibited clauses add no matches.
     */
    private static long[] ofBoolean(BooleanQuery query) {
        long[] smallest = null;
        List<Query> optional = new ArrayList<>();
        boolean required = false;
        for (BooleanClause clause : query.clauses()) {
            Occur occur = clause.occur();
            if (occur == Occur.MUST || occur == Occur.FILTER) {
                required = true;
                long[] own = of(clause.query());
                if (own != null && (smallest == null || own.length < smallest.length)) {
                    smallest = own;
                }
            } else if (occur == Occur.SHOULD) {
                optional.add(clause.query());
            }
        }
        if (smallest != null) {
            return smallest;
        }
        if (required && query.getMinimumNumberShouldMatch() == 0 || optional.isEmpty()) {
            // required clauses of unknown triggers; or nothing but prohibitions (matches nothing)
            return required ? null : NONE;
        }
        long[] union = NONE;
        for (Query q : optional) {
            long[] own = of(q);
            if (own == null) {
                return null;
            }
            union = concat(union, own);
        }
        return union;
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
