package dev.hanwiki.platform;

import java.util.List;

/**
 * One page of results without a total count (counting every match is what we avoid).
 * Field names are part of the API contract: {@code content}, {@code number}, {@code size},
 * {@code first} (this is page 0), {@code hasNext}, {@code last} (no page follows).
 */
public record ResultSlice<T>(List<T> content, int number, int size, boolean first, boolean hasNext, boolean last) {

    public ResultSlice {
        content = List.copyOf(content);
    }

    public static <T> ResultSlice<T> of(List<T> content, int number, int size, boolean hasNext) {
        return new ResultSlice<>(content, number, size, number == 0, hasNext, !hasNext);
    }
}
