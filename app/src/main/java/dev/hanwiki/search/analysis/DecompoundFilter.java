package dev.hanwiki.search.analysis;

import java.io.IOException;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.ko.POS;
import org.apache.lucene.analysis.ko.tokenattributes.PartOfSpeechAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute;

/**
 * Flattens the token graph that Nori emits in {@code MIXED} decompound mode, differently for
 * documents and queries (see docs/adr/0020-korean-analysis.md):
 * <ul>
 *   <li>a dictionary compound (삼성전자) comes as the whole word spanning n positions followed
 *       by its n parts (삼성, 전자). Documents keep both, so the whole word and each part find
 *       the page; queries keep only the whole word, one precise and cheap term instead of a
 *       phrase over two frequent ones. The token after a kept compound is moved n-1 positions
 *       further, so phrase positions still line up with the documents;</li>
 *   <li>an inflected form (했 = 하 + 았) comes as the surface followed by its morphemes. Both
 *       sides drop the surface and keep the morphemes, so 했다, 합니다 and 하는 all reach the
 *       stem 하.</li>
 * </ul>
 * Every emitted token has position length 1: the output is a plain sequence, no graph.
 */
public final class DecompoundFilter extends TokenFilter {

    private final PartOfSpeechAttribute pos = addAttribute(PartOfSpeechAttribute.class);
    private final PositionIncrementAttribute posInc = addAttribute(PositionIncrementAttribute.class);
    private final PositionLengthAttribute posLen = addAttribute(PositionLengthAttribute.class);
    private final boolean keepCompoundParts;

    /** Parts of a dropped or kept compound still to come: the first at +0, the rest at +1. */
    private boolean partAtSamePosition;
    private int partsAfterFirst;
    private boolean dropParts;
    /** Increment owed to the next emitted token (a kept compound's span, a dropped surface's increment). */
    private int owedIncrement;
    private boolean carryToFirstPart;

    public DecompoundFilter(TokenStream input, boolean keepCompoundParts) {
        super(input);
        this.keepCompoundParts = keepCompoundParts;
    }

    /** For documents: compounds and their parts, inflections as morphemes. */
    public static DecompoundFilter forDocuments(TokenStream input) {
        return new DecompoundFilter(input, true);
    }

    /** For queries: compounds whole, inflections as morphemes. */
    public static DecompoundFilter forQueries(TokenStream input) {
        return new DecompoundFilter(input, false);
    }

    @Override
    public boolean incrementToken() throws IOException {
        while (input.incrementToken()) {
            int inc = posInc.getPositionIncrement();
            if (partAtSamePosition || partsAfterFirst > 0) {
                boolean isPart = partAtSamePosition ? inc == 0 : inc == 1;
                if (isPart) {
                    if (partAtSamePosition) {
                        partAtSamePosition = false;
                        if (carryToFirstPart) {
                            // The first morpheme takes the place of the dropped surface.
                            posInc.setPositionIncrement(owedIncrement);
                            owedIncrement = 0;
                            carryToFirstPart = false;
                        }
                    } else {
                        partsAfterFirst--;
                    }
                    if (dropParts) {
                        continue;
                    }
                    posLen.setPositionLength(1);
                    return true;
                }
                // Not the expected part: the graph had another shape; stop tracking it.
                partAtSamePosition = false;
                partsAfterFirst = 0;
                carryToFirstPart = false;
            }
            int span = posLen.getPositionLength();
            if (span > 1 && pos.getPOSType() != null) {
                if (pos.getPOSType() == POS.Type.COMPOUND) {
                    partAtSamePosition = true;
                    partsAfterFirst = span - 1;
                    dropParts = !keepCompoundParts;
                    if (dropParts) {
                        posInc.setPositionIncrement(inc + owedIncrement);
                        owedIncrement = span - 1;
                    } else {
                        posInc.setPositionIncrement(inc + owedIncrement);
                        owedIncrement = 0;
                    }
                    posLen.setPositionLength(1);
                    return true;
                }
                // INFLECT or PREANALYSIS: drop the surface, keep the morphemes that follow.
                partAtSamePosition = true;
                partsAfterFirst = span - 1;
                dropParts = false;
                owedIncrement += inc;
                carryToFirstPart = true;
                continue;
            }
            if (owedIncrement != 0) {
                posInc.setPositionIncrement(inc + owedIncrement);
                owedIncrement = 0;
            }
            posLen.setPositionLength(1);
            return true;
        }
        return false;
    }

    @Override
    public void reset() throws IOException {
        super.reset();
        partAtSamePosition = false;
        partsAfterFirst = 0;
        dropParts = false;
        owedIncrement = 0;
        carryToFirstPart = false;
    }
}
