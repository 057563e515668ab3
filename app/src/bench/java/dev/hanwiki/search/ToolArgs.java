package dev.hanwiki.search;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code --key value} options of the search tools run from the test classes
 * ({@link SearchBench}, {@link CommonGramsBench}, {@link CommonTermsExport}); paths resolve
 * against {@code --root} (default: the working directory).
 */
record ToolArgs(Map<String, String> options, Path root) {

    static ToolArgs parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return new ToolArgs(options, Path.of(options.getOrDefault("root", ".")).toAbsolutePath().normalize());
    }

    String text(String key, String otherwise) {
        return options.getOrDefault(key, otherwise);
    }

    int number(String key, int otherwise) {
        String value = options.get(key);
        return value == null ? otherwise : Integer.parseInt(value);
    }

    Path path(String key, String otherwise) {
        return root.resolve(text(key, otherwise));
    }

    /** The index to read: {@code --index}, by default node1's. */
    Path index() {
        return path("index", "var/node1/index");
    }
}
