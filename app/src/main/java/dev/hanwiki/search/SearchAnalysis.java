package dev.hanwiki.search;

import dev.hanwiki.search.analysis.CommonGrams;
import dev.hanwiki.search.analysis.KoreanAnalysis;
import dev.hanwiki.search.query.Synonyms;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.ko.dict.UserDictionary;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The analysis this node uses, reloadable without a restart: the user dictionary and the
 * synonyms are read from {@code hanwiki.search.analysis-dir} (the repository's
 * {@code app/src/main/resources/search/}, or the copies on the classpath when no directory is
 * set) and checked for changes every {@code analysis-reload-interval} ({@link AnalysisReloader}). A file that fails to
 * parse is reported and the previous version stays in use.
 * <p>
 * Synonyms act at query time, so a change applies to every page at once. The user dictionary
 * also shapes how pages are indexed: after a reload, new and edited pages and all queries use
 * it; pages indexed before keep their old terms until the index is rebuilt (delete the node's
 * index directory and restart it: it replays the change stream). See ADR 0020.
 */
public final class SearchAnalysis {

    static final String DICTIONARY_FILE = "user-dictionary.txt";
    static final String SYNONYMS_FILE = "synonyms.txt";
    /** On the classpath only: the pairs are part of what the index holds, so they change with a build (and a FORMAT). */
    static final String COMMON_TERMS_RESOURCE = "/search/common-terms.txt";
    private static final Logger log = LoggerFactory.getLogger(SearchAnalysis.class);

    /** One consistent set: the chains, the synonyms analyzed with them, and the file stamps. */
    private record State(KoreanAnalysis analysis, Synonyms synonyms, Stamp dictionary, Stamp synonymsFile) {
    }

    private record Stamp(FileTime modified, long size) {
        static Stamp of(Path file) throws IOException {
            return Files.exists(file) ? new Stamp(Files.getLastModifiedTime(file), Files.size(file)) : null;
        }
    }

    /** A query term and its position (gaps left by stop words are kept, as phrases need them). */
    record Token(String term, int position) {
    }

    private final Path dir;
    private final CommonGrams commonGrams;
    private final Analyzer indexAnalyzer = new FieldAnalyzer();
    private volatile State state;
    /** Stamps of files that failed to load, so a broken file is reported once, not every check. */
    private volatile List<Stamp> failed = List.of();

    public SearchAnalysis(SearchSettings settings) {
        this(settings, CommonGrams.parse(resource(COMMON_TERMS_RESOURCE)));
    }

    /** With another list of common terms ({@link CommonGrams#none()}: no pairs), for measurements. */
    SearchAnalysis(SearchSettings settings, CommonGrams commonGrams) {
        this.dir = settings.analysisDir();
        this.commonGrams = commonGrams;
        try {
            this.state = load(null);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("search analysis files cannot be loaded: " + e.getMessage(), e);
        }
        log.info("Search analysis from {}: {} synonym entries, {} common terms paired in the index",
                dir == null ? "classpath:search/" : dir, state.synonyms().size(), commonGrams.size());
    }

    /** Analyzer for the IndexWriter: per field, always the current chains. */
    Analyzer indexAnalyzer() {
        return indexAnalyzer;
    }

    Synonyms synonyms() {
        return state.synonyms();
    }

    KoreanAnalysis current() {
        return state.analysis();
    }

    /** Query terms of {@code text} with their positions, as the query chain produces them. */
    List<Token> queryTokens(String text) {
        return tokens(state.analysis().queries(), text);
    }

    /**
     * Other ways a page's text may have analyzed one query word whose own terms are
     * {@code alone} ({@link AnalyzedText#otherReadings}); usually none.
     */
    List<List<Token>> otherReadings(String word, List<Token> alone) {
        return AnalyzedText.otherReadings(state.analysis().queries(), word, alone);
    }

    /**
     * The terms of an exact phrase. When the document chain pairs a common term in it, the
     * phrase is matched through the pairs, as CommonGramsQueryFilter would select them: every
     * pair at its first word's position, and every single word except the first word of a
     * pair (the pair stands for it); the second word of a pair is kept at its own position,
     * which keeps stop-word gaps exact (the pair itself ignores them). Positions come from the
     * document chain itself (compound parts included), so they line up with the index. A
     * phrase without a common term, or of one term, keeps the query chain's terms.
     */
    List<Token> phraseTokens(String text) {
        KoreanAnalysis current = state.analysis();
        List<Token> plain = tokens(current.queries(), text);
        if (plain.size() > 1 && current.commonGrams().size() > 0) {
            List<Token> paired = pairedTokens(current.documents(), text);
            if (paired != null) {
                return paired;
            }
        }
        return plain;
    }

    /** The pair-selected terms of {@code text}, or null if it has no pair. */
    private static List<Token> pairedTokens(Analyzer documents, String text) {
        List<Token> all = new ArrayList<>();
        List<Boolean> gram = new ArrayList<>();
        try (TokenStream stream = documents.tokenStream(PostFields.CONTENT, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            PositionIncrementAttribute inc = stream.addAttribute(PositionIncrementAttribute.class);
            TypeAttribute type = stream.addAttribute(TypeAttribute.class);
            stream.reset();
            int position = -1;
            while (stream.incrementToken()) {
                position += inc.getPositionIncrement();
                all.add(new Token(term.toString(), Math.max(position, 0)));
                gram.add(CommonGrams.GRAM_TYPE.equals(type.type()));
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!gram.contains(true)) {
            return null;
        }
        List<Token> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            boolean firstOfPair = !gram.get(i) && i + 1 < all.size() && gram.get(i + 1);
            if (!firstOfPair) {
                out.add(all.get(i));
            }
        }
        return out;
    }

    /** The spell-field terms (jamo) of {@code text}. */
    List<Token> spellTokens(String text) {
        return tokens(state.analysis().spell(), text);
    }

    private static List<Token> tokens(Analyzer analyzer, String text) {
        return AnalyzedText.tokens(analyzer, text, text.length());
    }

    /**
     * Re-reads the files if either changed since the last load.
     *
     * @return true if a new version is now in use
     */
    boolean reloadIfChanged() throws IOException {
        if (dir == null) {
            return false;
        }
        State current = state;
        Stamp dict = Stamp.of(dir.resolve(DICTIONARY_FILE));
        Stamp syn = Stamp.of(dir.resolve(SYNONYMS_FILE));
        if (Objects.equals(dict, current.dictionary()) && Objects.equals(syn, current.synonymsFile())) {
            return false;
        }
        List<Stamp> attempt = java.util.Arrays.asList(dict, syn);
        try {
            state = load(current);
        } catch (IOException | RuntimeException e) {
            failed = attempt;
            throw e;
        }
        failed = List.of();
        log.info("Reloaded search analysis from {}: {} synonym entries", dir, state.synonyms().size());
        return true;
    }

    /** What {@link AnalysisReloader} runs: a broken file is reported once and the previous version kept. */
    void reloadQuietly() {
        try {
            if (dir != null && java.util.Arrays.asList(Stamp.of(dir.resolve(DICTIONARY_FILE)), Stamp.of(dir.resolve(SYNONYMS_FILE))).equals(failed)) {
                return; // still the broken version already reported
            }
            reloadIfChanged();
        } catch (IOException | RuntimeException e) {
            log.error("Search analysis files changed but cannot be used; keeping the previous version: {}", e.getMessage());
        }
    }

    private State load(State previous) throws IOException {
        Stamp dictStamp = dir == null ? null : Stamp.of(dir.resolve(DICTIONARY_FILE));
        Stamp synStamp = dir == null ? null : Stamp.of(dir.resolve(SYNONYMS_FILE));
        KoreanAnalysis analysis;
        if (previous != null && Objects.equals(dictStamp, previous.dictionary())) {
            analysis = previous.analysis();
        } else {
            UserDictionary dictionary = KoreanAnalysis.parseDictionary(read(DICTIONARY_FILE));
            analysis = new KoreanAnalysis(dictionary, commonGrams);
        }
        Synonyms synonyms = Synonyms.parse(read(SYNONYMS_FILE),
                text -> tokens(analysis.queries(), text).stream().map(Token::term).toList());
        // The previous chains are not closed: a search may still be using them. Their
        // per-thread state goes with them when they become unreachable.
        return new State(analysis, synonyms, dictStamp, synStamp);
    }

    private static String resource(String name) {
        try (InputStream in = SearchAnalysis.class.getResourceAsStream(name)) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String read(String name) throws IOException {
        if (dir != null) {
            Path file = dir.resolve(name);
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        }
        try (InputStream in = SearchAnalysis.class.getResourceAsStream("/search/" + name)) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Picks each field's chain from the current state, so a reload reaches the IndexWriter too. */
    private final class FieldAnalyzer extends DelegatingAnalyzerWrapper {
        FieldAnalyzer() {
            super(PER_FIELD_REUSE_STRATEGY);
        }

        @Override
        protected Analyzer getWrappedAnalyzer(String fieldName) {
            KoreanAnalysis analysis = state.analysis();
            return switch (fieldName) {
                case PostFields.SPELL -> analysis.spell();
                case PostFields.CHOSUNG -> analysis.chosung();
                default -> analysis.documents();
            };
        }
    }
}
