package dev.hanwiki.search;

import java.util.Map;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.LongField;
import org.apache.lucene.queryparser.simple.SimpleQueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns user text into a Lucene query. SimpleQueryParser is used because it is built never to
 * throw on syntax: unbalanced quotes or stray operators degrade to terms. Fuzzy ({@code ~N})
 * and proximity operators are disabled because one short input can expand into thousands of
 * terms. Title matches weigh twice as much as body matches; all terms must match by default.
 */
final class PostQueries {

    private static final Logger log = LoggerFactory.getLogger(PostQueries.class);
    private static final Map<String, Float> FIELD_WEIGHTS = Map.of(PostFields.TITLE, 2f, PostFields.CONTENT, 1f);
    private static final int OPERATORS = -1 & ~SimpleQueryParser.FUZZY_OPERATOR & ~SimpleQueryParser.NEAR_OPERATOR;

    private PostQueries() {
    }

    /** @return the query, or empty if the text holds nothing searchable */
    static Optional<Query> parse(Analyzer analyzer, String text) {
        try {
            SimpleQueryParser parser = new SimpleQueryParser(analyzer, FIELD_WEIGHTS, OPERATORS);
            parser.setDefaultOperator(BooleanClause.Occur.MUST);
            Query query = parser.parse(text);
            if (query == null || query instanceof MatchNoDocsQuery
                    || (query instanceof BooleanQuery bq && bq.clauses().isEmpty())) {
                return Optional.empty();
            }
            return Optional.of(query);
        } catch (RuntimeException e) {
            // The parser is meant not to throw; if some input still makes it, that input
            // simply matches nothing rather than failing the request.
            log.debug("Unparseable search text treated as no match: {}", e.toString());
            return Optional.empty();
        }
    }

    /** Restricts {@code query} to one category without affecting scores. */
    static Query inCategory(Query query, Long categoryId) {
        if (categoryId == null) {
            return query;
        }
        return new BooleanQuery.Builder()
                .add(query, BooleanClause.Occur.MUST)
                .add(LongField.newExactQuery(PostFields.CATEGORY, categoryId), BooleanClause.Occur.FILTER)
                .build();
    }
}
