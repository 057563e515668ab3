package dev.hanwiki.search.analysis;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKWidthCharFilter;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.util.CharTokenizer;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.PatternKeywordMarkerFilter;
import org.apache.lucene.analysis.ko.KoreanPartOfSpeechStopFilter;
import org.apache.lucene.analysis.ko.KoreanTokenizer;
import org.apache.lucene.analysis.ko.POS;
import org.apache.lucene.analysis.ko.dict.UserDictionary;

/**
 * The analysis chains, built around one user dictionary (immutable: a reload builds a new
 * instance). See docs/adr/0020-korean-analysis.md for why each step is there.
 * <pre>
 * text:    CJK width fold → Nori (MIXED, user dictionary, punctuation dropped)
 *          → {@link DecompoundFilter} → part-of-speech stop → Hanja to Hangul reading
 *          → acronyms (BTS, NASA) marked as keywords → lower case → Porter stem (ASCII words)
 *          → documents only: pairs of common terms with their neighbours ({@link CommonGrams})
 * spell:   words as written (letters and digits), lower case, as jamo (did-you-mean terms)
 * chosung: whitespace-separated, pre-computed initial-consonant strings
 * </pre>
 */
public final class KoreanAnalysis {

    /**
     * Lucene's default stop tags minus IC (interjections: 안녕 must be searchable) and MAG
     * (adverbs: 다시, 빨리 and 정말 are words people put in titles), plus VCP/VCN (the copula
     * 이다/아니다), VX (auxiliary verbs: 있다 in 하고 있다) and NNB (bound nouns: 것, 수, 등),
     * which are grammar, not content, and would otherwise be among the most frequent terms.
     */
    public static final Set<POS.Tag> STOP_TAGS = stopTags();

    private static final Pattern ACRONYM = Pattern.compile("[A-Z][A-Z0-9]+");

    private final UserDictionary dictionary;
    private final CommonGrams commonGrams;
    private final Analyzer documents;
    private final Analyzer queries;
    private final Analyzer spell;
    private final Analyzer chosung;

    /** Chains without word pairs (see {@link #KoreanAnalysis(UserDictionary, CommonGrams)}). */
    public KoreanAnalysis(UserDictionary dictionary) {
        this(dictionary, CommonGrams.none());
    }

    /**
     * @param commonGrams terms whose pairs with their neighbours the document chain adds (at the
     *        first word's position), so phrases with frequent words are cheap to match
     */
    public KoreanAnalysis(UserDictionary dictionary, CommonGrams commonGrams) {
        this.dictionary = dictionary;
        this.commonGrams = commonGrams;
        this.documents = chain(false, true);
        this.queries = chain(true, true);
        this.spell = new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer tokenizer = CharTokenizer.fromTokenCharPredicate(Character::isLetterOrDigit);
                return new TokenStreamComponents(tokenizer, new JamoFilter(new LowerCaseFilter(tokenizer)));
            }

            @Override
            protected Reader initReader(String fieldName, Reader reader) {
                return new CJKWidthCharFilter(reader);
            }
        };
        this.chosung = new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                WhitespaceTokenizer tokenizer = new WhitespaceTokenizer();
                return new TokenStreamComponents(tokenizer);
            }
        };
    }

    /**
     * The analyzer for page text (title and body) at index time; with word pairs of the common
     * terms, which phrase queries use (see {@link CommonGrams}).
     */
    public Analyzer documents() {
        return documents;
    }

    /** The analyzer for query words: like documents, but compounds stay whole. */
    public Analyzer queries() {
        return queries;
    }

    /**
     * Words as written (no morphology: a suggestion must read like what people type), lower
     * case, as jamo strings: the dictionary of did-you-mean suggestions.
     */
    public Analyzer spell() {
        return spell;
    }

    /** Pre-computed chosung strings separated by spaces. */
    public Analyzer chosung() {
        return chosung;
    }

    /** The user dictionary these chains were built with (null: none). */
    public UserDictionary dictionary() {
        return dictionary;
    }

    /** The common terms the document chain pairs with their neighbours. */
    public CommonGrams commonGrams() {
        return commonGrams;
    }

    /** Closes the analyzers' per-thread state; the instance must not be used afterwards. */
    public void close() {
        documents.close();
        queries.close();
        spell.close();
        chosung.close();
    }

    private Analyzer chain(boolean forQuery, boolean stem) {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer tokenizer = tokenizer();
                TokenStream text = text(tokenizer, forQuery, stem);
                return new TokenStreamComponents(tokenizer, forQuery ? text : commonGrams.filter(text));
            }

            @Override
            protected Reader initReader(String fieldName, Reader reader) {
                return new CJKWidthCharFilter(reader);
            }

            @Override
            protected TokenStream normalize(String fieldName, TokenStream in) {
                return new LowerCaseFilter(in);
            }
        };
    }

    private Tokenizer tokenizer() {
        return new KoreanTokenizer(TokenStream.DEFAULT_TOKEN_ATTRIBUTE_FACTORY, dictionary,
                KoreanTokenizer.DecompoundMode.MIXED, false, true);
    }

    private static TokenStream text(Tokenizer tokenizer, boolean forQuery, boolean stem) {
        TokenStream stream = forQuery ? DecompoundFilter.forQueries(tokenizer) : DecompoundFilter.forDocuments(tokenizer);
        stream = new KoreanPartOfSpeechStopFilter(stream, STOP_TAGS);
        stream = new HanjaReadingFilter(stream);
        // Acronyms are names, not inflected words: BTS must not be stemmed to "bt".
        stream = new PatternKeywordMarkerFilter(stream, ACRONYM);
        stream = new LowerCaseFilter(stream);
        return stem ? new PorterStemFilter(stream) : stream;
    }

    private static Set<POS.Tag> stopTags() {
        EnumSet<POS.Tag> tags = EnumSet.copyOf(KoreanPartOfSpeechStopFilter.DEFAULT_STOP_TAGS);
        tags.remove(POS.Tag.IC);
        tags.remove(POS.Tag.MAG);
        tags.add(POS.Tag.VCP);
        tags.add(POS.Tag.VCN);
        tags.add(POS.Tag.VX);
        tags.add(POS.Tag.NNB);
        return Set.copyOf(tags);
    }

    /** Parses a user dictionary in Nori's format (one entry per line, optional segmentation). */
    public static UserDictionary parseDictionary(String text) throws IOException {
        return UserDictionary.open(new StringReader(text));
    }
}
