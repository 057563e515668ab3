package dev.hanwiki.search;

import java.util.Set;

/** Test access to the segment names of an index, for tests outside this package. */
public final class IndexSegments {

    private IndexSegments() {
    }

    /** See {@link PostIndexTest#segmentNames}. */
    public static Set<String> names(PostIndex index) {
        return PostIndexTest.segmentNames(index);
    }
}
