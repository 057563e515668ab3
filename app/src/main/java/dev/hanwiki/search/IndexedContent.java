package dev.hanwiki.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * What the index holds of a post's content, as a digest: convergence checks compare it with
 * the same digest of the primary's row, so an index that has the right version of a post but
 * the wrong text (a parser reading the wrong image, a field dropped) is found, not only one
 * that lags. The definition is {@link #digest} and must stay the one the checks compute.
 */
public final class IndexedContent {

    private IndexedContent() {
    }

    /**
     * SHA-256 (hex) of the title, the content and the category id (empty when none), each
     * followed by a newline, in UTF-8.
     */
    public static String digest(String title, String content, Long categoryId) {
        String text = title + "\n" + content + "\n" + (categoryId == null ? "" : categoryId) + "\n";
        return HexFormat.of().formatHex(DigestUtils.sha256(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The digest of every post of {@code ids} this node's search shows (absent ids are left out). */
    public static Map<Long, String> of(PostIndex index, Collection<Long> ids) {
        IndexSearcher searcher = index.acquire();
        try {
            Map<Long, String> found = new TreeMap<>();
            for (long id : ids) {
                TopDocs hits = searcher.search(new TermQuery(PostFields.idTerm(id)), 1);
                if (hits.scoreDocs.length > 0) {
                    // The digest covers title, content and category only: the counts are not read.
                    PostDocument post = PostFields.fromStored(searcher.storedFields().document(hits.scoreDocs[0].doc), new long[2]);
                    found.put(id, digest(post.title(), post.content(), post.categoryId()));
                }
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            index.release(searcher);
        }
    }
}
