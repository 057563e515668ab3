package dev.hanwiki.search;

import dev.hanwiki.search.SearchAnalysis.Token;
import dev.hanwiki.search.query.Clause;
import dev.hanwiki.search.query.SearchSyntax;
import dev.hanwiki.search.query.Synonyms;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.document.LongField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * Turns search text into Lucene queries (see docs/adr/0021-ranking-and-query-language.md).
 * <ul>
 *   <li>Every plain word is required (AND). A word the analyzer splits into several terms
 *       (갤럭시S24, 3.14) is a phrase of them; a word the pages' text may have read otherwise
 *       (before a noun, say) also matches as that reading. Each required part matches the title (boosted)
 *       or the body. If nothing matches all of three or more words, {@link BuiltQuery#relaxed()}
 *       asks for all but one.</li>
 *   <li>Synonyms expand a word (or up to a few consecutive words) into alternatives.</li>
 *   <li>{@code "phrase"} (through the common-term pairs of {@link SearchAnalysis#phraseTokens}), {@code intitle:}, {@code -excluded}, {@code category:name} (a
 *       non-scoring filter; an unknown name matches nothing), chosung words.</li>
 *   <li>The ranking boosts ({@link Ranking}) are optional clauses of the same query, so the
 *       top-k collector can skip documents that cannot compete.</li>
 * </ul>
 */
final class PostQueryBuilder {

    private final SearchAnalysis analysis;
    private final Categories categories;

    PostQueryBuilder(SearchAnalysis analysis, Categories categories) {
        this.analysis = analysis;
        this.categories = categories;
    }

    BuiltQuery build(String text, Long categoryId, Instant now) {
        List<Clause> clauses = SearchSyntax.parse(text);
        List<Query> required = new ArrayList<>();
        List<Query> highlight = new ArrayList<>();
        List<Query> excluded = new ArrayList<>();
        List<Query> filters = new ArrayList<>();
        Synonyms synonyms = analysis.synonyms();

        List<List<Token>> words = new ArrayList<>();
        // Per plain word, the other ways a page may have analyzed it (SearchAnalysis#otherReadings).
        List<List<List<Token>>> otherReadings = new ArrayList<>();
        for (Clause clause : clauses) {
            List<Token> tokens = clause.kind() == Clause.Kind.CATEGORY || clause.kind() == Clause.Kind.CHOSUNG
                    ? List.of() : analysis.queryTokens(clause.text());
            switch (clause.kind()) {
                case WORD -> {
                    if (clause.negated()) {
                        addIfPresent(excluded, either(tokens, 1f));
                    } else if (!tokens.isEmpty()) {
                        words.add(tokens);
                        otherReadings.add(analysis.otherReadings(clause.text(), tokens));
                    }
                }
                case PHRASE -> {
                    // Matched through common-term pairs where it has them; highlighted by its words.
                    List<Token> matched = tokens.size() > 1 ? analysis.phraseTokens(clause.text()) : tokens;
                    if (clause.negated()) {
                        addIfPresent(excluded, either(matched, 1f));
                    } else if (!tokens.isEmpty()) {
                        required.add(either(matched, 1f));
                        highlight.add(field(PostFields.CONTENT, tokens));
                    }
                }
                case TITLE -> {
                    if (!tokens.isEmpty()) {
                        (clause.negated() ? excluded : required).add(field(PostFields.TITLE, tokens));
                    }
                }
                case CATEGORY -> {
                    Optional<Long> id = categories.idOf(clause.text());
                    if (clause.negated()) {
                        id.ifPresent(c -> excluded.add(LongField.newExactQuery(PostFields.CATEGORY, c)));
                    } else {
                        filters.add(id.map(c -> LongField.newExactQuery(PostFields.CATEGORY, c))
                                .orElseGet(() -> new MatchNoDocsQuery("unknown category " + clause.text())));
                    }
                }
                case CHOSUNG -> required.add(new TermQuery(new Term(PostFields.CHOSUNG, clause.text())));
            }
        }
        addWords(words, otherReadings, synonyms, required, highlight);

        List<String> plainWords = SearchSyntax.plainWords(clauses);
        if (required.isEmpty() && filters.isEmpty() && categoryId == null) {
            return BuiltQuery.nothing(plainWords);
        }
        List<Query> categoryFilters = new ArrayList<>(filters);
        if (categoryId != null) {
            categoryFilters.add(LongField.newExactQuery(PostFields.CATEGORY, categoryId));
        }
        Query ranked = ranked(required, 0, excluded, categoryFilters, now);
        Query matching = matching(required, 0, excluded);
        Query relaxed = null;
        Query relaxedMatching = null;
        if (required.size() >= 3) {
            relaxed = ranked(required, required.size() - 1, excluded, categoryFilters, now);
            relaxedMatching = matching(required, required.size() - 1, excluded);
        }
        Query highlightQuery = highlight.isEmpty() ? null : any(highlight);
        return new BuiltQuery(ranked, matching, relaxed, relaxedMatching, highlightQuery, plainWords, true);
    }

    /**
     * Plain words, each required, with synonyms: at each position the longest run of words
     * (up to the longest synonym entry) whose terms together are a synonym key is expanded.
     */
    private static void addWords(List<List<Token>> words, List<List<List<Token>>> otherReadings, Synonyms synonyms,
            List<Query> required, List<Query> highlight) {
        int i = 0;
        while (i < words.size()) {
            int span = 1;
            List<List<String>> alternatives = List.of();
            for (int j = Math.min(words.size(), i + Math.max(1, synonyms.longestEntry())); j > i; j--) {
                List<List<String>> alts = synonyms.of(terms(words.subList(i, j)));
                if (!alts.isEmpty()) {
                    span = j - i;
                    alternatives = alts;
                    break;
                }
            }
            List<Token> tokens = span == 1 ? words.get(i) : joined(words.subList(i, i + span));
            // The word as the page's text may have read it (only a word without synonyms).
            List<List<Token>> readings = span == 1 && alternatives.isEmpty() ? otherReadings.get(i) : List.of();
            if (alternatives.isEmpty() && readings.isEmpty()) {
                required.add(either(tokens, 1f));
                highlight.add(field(PostFields.CONTENT, tokens));
            } else {
                BooleanQuery.Builder anyOf = new BooleanQuery.Builder();
                BooleanQuery.Builder anyOfInBody = new BooleanQuery.Builder();
                for (List<Token> reading : concat(tokens, readings)) {
                    anyOf.add(either(reading, 1f), Occur.SHOULD);
                    anyOfInBody.add(field(PostFields.CONTENT, reading), Occur.SHOULD);
                }
                for (List<String> alternative : alternatives) {
                    List<Token> altTokens = sequence(alternative);
                    // A phrase scores the sum of its terms' weights: divide so that a two-word
                    // alternative (black hole) does not outweigh the one word typed (블랙홀).
                    anyOf.add(either(altTokens, Ranking.SYNONYM_BOOST / altTokens.size()), Occur.SHOULD);
                    anyOfInBody.add(field(PostFields.CONTENT, altTokens), Occur.SHOULD);
                }
                required.add(anyOf.build());
                highlight.add(anyOfInBody.build());
            }
            i += span;
        }
    }

    private static List<List<Token>> concat(List<Token> first, List<List<Token>> rest) {
        List<List<Token>> all = new ArrayList<>(rest.size() + 1);
        all.add(first);
        all.addAll(rest);
        return all;
    }

    /** Terms of consecutive words, as one sequence (positions continue across words). */
    private static List<Token> joined(List<List<Token>> words) {
        List<Token> out = new ArrayList<>();
        int offset = 0;
        for (List<Token> word : words) {
            int base = word.getFirst().position();
            int last = 0;
            for (Token t : word) {
                last = t.position() - base;
                out.add(new Token(t.term(), offset + last));
            }
            offset += last + 1;
        }
        return out;
    }

    private static List<String> terms(List<List<Token>> words) {
        List<String> out = new ArrayList<>();
        for (List<Token> word : words) {
            for (Token t : word) {
                out.add(t.term());
            }
        }
        return out;
    }

    private static List<Token> sequence(List<String> terms) {
        List<Token> out = new ArrayList<>(terms.size());
        for (int i = 0; i < terms.size(); i++) {
            out.add(new Token(terms.get(i), i));
        }
        return out;
    }

    /** Title (boosted) or body. */
    private static Query either(List<Token> tokens, float boost) {
        if (tokens.isEmpty()) {
            return null;
        }
        Query q = new BooleanQuery.Builder()
                .add(new BoostQuery(field(PostFields.TITLE, tokens), Ranking.TITLE_BOOST), Occur.SHOULD)
                .add(field(PostFields.CONTENT, tokens), Occur.SHOULD)
                .build();
        return boost == 1f ? q : new BoostQuery(q, boost);
    }

    /** One term, or the phrase of several at their relative positions (stop-word gaps kept). */
    private static Query field(String field, List<Token> tokens) {
        if (tokens.size() == 1) {
            return new TermQuery(new Term(field, tokens.getFirst().term()));
        }
        PhraseQuery.Builder phrase = new PhraseQuery.Builder();
        int base = tokens.getFirst().position();
        for (Token t : tokens) {
            phrase.add(new Term(field, t.term()), t.position() - base);
        }
        return phrase.build();
    }

    private static Query any(List<Query> queries) {
        if (queries.size() == 1) {
            return queries.getFirst();
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        queries.forEach(q -> b.add(q, Occur.SHOULD));
        return b.build();
    }

    private static void addIfPresent(List<Query> list, Query q) {
        if (q != null) {
            list.add(q);
        }
    }

    private static Query ranked(List<Query> required, int minimumShouldMatch, List<Query> excluded,
            List<Query> filters, Instant now) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        addText(b, required, minimumShouldMatch);
        b.add(Ranking.popularity(), Occur.SHOULD);
        b.add(Ranking.recency(now), Occur.SHOULD);
        filters.forEach(f -> b.add(f, Occur.FILTER));
        excluded.forEach(e -> b.add(e, Occur.MUST_NOT));
        return b.build();
    }

    /** The match set without ranking clauses or category filters: what facets count. */
    private static Query matching(List<Query> required, int minimumShouldMatch, List<Query> excluded) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        addText(b, required, minimumShouldMatch);
        excluded.forEach(e -> b.add(e, Occur.MUST_NOT));
        return b.build();
    }

    private static void addText(BooleanQuery.Builder b, List<Query> required, int minimumShouldMatch) {
        if (required.isEmpty()) {
            b.add(new MatchAllDocsQuery(), Occur.MUST);
        } else if (minimumShouldMatch > 0) {
            BooleanQuery.Builder some = new BooleanQuery.Builder().setMinimumNumberShouldMatch(minimumShouldMatch);
            required.forEach(q -> some.add(q, Occur.SHOULD));
            b.add(some.build(), Occur.MUST);
        } else {
            required.forEach(q -> b.add(q, Occur.MUST));
        }
    }
}
