package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

/**
 * The error-code table of docs/architecture.md lists exactly the codes the code can answer
 * with, at the status it answers them: the constants of {@link ProblemCodes}, the codes
 * feature exceptions pass to {@link ApiException}, and the codes nginx writes itself. A code
 * added to the code and not to the table (or the reverse) fails here.
 */
class ProblemCodeTableTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern ROW = Pattern.compile("^\\| ([^|]+) \\| (\\d{3}) \\|", Pattern.MULTILINE);
    private static final Pattern CODE = Pattern.compile("`([A-Z][A-Z_]+)`");
    private static final Pattern EXCEPTION =
            Pattern.compile("super\\(HttpStatus\\.([A-Z_]+),\\s*(?:\"([A-Z][A-Z_]+)\"|ProblemCodes\\.([A-Z_]+))");
    private static final Pattern NGINX = Pattern.compile("return (\\d{3}) '\\{[^']*\"code\":\"([A-Z_]+)\"");

    @Test
    void theTableListsEveryCodeTheCodeAnswersWithAndNoOther() throws Exception {
        Map<String, Set<Integer>> documented = documented();
        Set<String> answered = new TreeSet<>(constants());
        answered.addAll(exceptionCodes().keySet());
        answered.addAll(nginxCodes().keySet());
        assertThat(documented.keySet()).as("codes in docs/architecture.md's table").containsExactlyInAnyOrderElementsOf(answered);
    }

    @Test
    void eachFeatureExceptionAndNginxCodeIsDocumentedWithItsStatus() throws Exception {
        Map<String, Set<Integer>> documented = documented();
        Map<String, Set<Integer>> answered = new TreeMap<>(exceptionCodes());
        nginxCodes().forEach((code, statuses) -> answered.computeIfAbsent(code, c -> new TreeSet<>()).addAll(statuses));
        answered.forEach((code, statuses) -> assertThat(documented.getOrDefault(code, Set.of()))
                .as("statuses documented for %s", code).containsAll(statuses));
    }

    @Test
    void aCodeDerivedFromAStatusIsDocumentedWithThatStatus() throws Exception {
        Map<String, Set<Integer>> documented = documented();
        for (int status = 400; status < 600; status++) {
            String code = ProblemCodes.forStatus(status);
            if (!code.startsWith("HTTP_") && !code.equals(ProblemCodes.INTERNAL_ERROR)) {
                assertThat(documented.getOrDefault(code, Set.of())).as("statuses documented for %s", code).contains(status);
            }
        }
    }

    /** Code -> statuses, from the table that follows "| code | status | meaning |". */
    private static Map<String, Set<Integer>> documented() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
        int start = doc.indexOf("| code | status | meaning |");
        assertThat(start).as("the error-code table in docs/architecture.md").isNotNegative();
        int end = doc.indexOf("\n\n", start);
        Map<String, Set<Integer>> codes = new TreeMap<>();
        Matcher row = ROW.matcher(doc.substring(start, end < 0 ? doc.length() : end));
        while (row.find()) {
            Matcher code = CODE.matcher(row.group(1));
            while (code.find()) {
                codes.computeIfAbsent(code.group(1), c -> new TreeSet<>()).add(Integer.parseInt(row.group(2)));
            }
        }
        return codes;
    }

    private static List<String> constants() throws IllegalAccessException {
        List<String> codes = new java.util.ArrayList<>();
        for (Field f : ProblemCodes.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                codes.add((String) f.get(null));
            }
        }
        return codes;
    }

    /** Code -> statuses of every {@code super(HttpStatus.X, "CODE"...)} in the main sources. */
    private static Map<String, Set<Integer>> exceptionCodes() throws IOException {
        Map<String, Set<Integer>> codes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(p -> p.toString().endsWith("Exception.java")).toList()) {
                Matcher m = EXCEPTION.matcher(Files.readString(file));
                while (m.find()) {
                    String code = m.group(2) != null ? m.group(2) : constant(m.group(3));
                    codes.computeIfAbsent(code, c -> new TreeSet<>()).add(HttpStatus.valueOf(m.group(1)).value());
                }
            }
        }
        return codes;
    }

    private static String constant(String name) {
        try {
            return (String) ProblemCodes.class.getField(name).get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("ProblemCodes." + name, e);
        }
    }

    /** Code -> statuses of the problem bodies nginx returns itself. */
    private static Map<String, Set<Integer>> nginxCodes() throws IOException {
        Map<String, Set<Integer>> codes = new TreeMap<>();
        Matcher m = NGINX.matcher(Files.readString(ROOT.resolve("nginx/nginx.conf")));
        while (m.find()) {
            codes.computeIfAbsent(m.group(2), c -> new TreeSet<>()).add(Integer.parseInt(m.group(1)));
        }
        assertThat(codes).as("problem bodies found in nginx/nginx.conf").isNotEmpty();
        return codes;
    }
}
