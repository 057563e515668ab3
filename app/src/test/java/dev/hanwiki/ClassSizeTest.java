package dev.hanwiki;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Small classes (docs/shared conventions, issue 18): no source file of the main code is longer
 * than {@value #MAX_LINES} lines, comments included. There is no exception list; a class that
 * grows past it is split by job.
 */
class ClassSizeTest {

    static final int MAX_LINES = 300;
    private static final Path SOURCES = Path.of("src/main/java");

    @Test
    void noMainClassIsLongerThanTheLimit() {
        assertThat(tooLong(SOURCES)).as("files over %d lines", MAX_LINES).isEmpty();
    }

    @Test
    void aLongFileIsReported(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("Short.java"), "class Short {\n}\n");
        Files.writeString(dir.resolve("Long.java"), "class Long {\n" + "//\n".repeat(MAX_LINES) + "}\n");

        assertThat(tooLong(dir)).containsOnlyKeys("Long.java").containsEntry("Long.java", MAX_LINES + 2L);
    }

    /** File (relative to {@code root}) -> line count, for every .java file past the limit. */
    static Map<String, Long> tooLong(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> sources = files.filter(f -> f.toString().endsWith(".java")).toList();
            return sources.stream()
                    .map(f -> Map.entry(root.relativize(f).toString(), lines(f)))
                    .filter(e -> e.getValue() > MAX_LINES)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
