package dev.hanwiki;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module graph of the main code (ADR 0075): every package below {@value #ROOT} is a module,
 * modules never depend on each other in a circle, and each module uses only the modules its
 * {@code package-info.java} lists on its "Allowed dependencies" line. The note is the one
 * declaration: a new package or a new dependency between modules is a decision made there.
 */
class ModuleGraphTest {

    private static final String ROOT = "dev.hanwiki";
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern ALLOWED_LINE =
            Pattern.compile("^ \\* <p>Allowed dependencies \\(ModuleGraphTest, ADR 0075\\): (.+)\\.$", Pattern.MULTILINE);

    private static JavaClasses classes;
    private static Set<String> modules;

    @BeforeAll
    static void importMainClasses() {
        // The main classes' own directory (or jar) only: their dependencies on each other are
        // what is checked (archunit.properties: no resolving of third-party classes either).
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importUrl(HanwikiApplication.class.getProtectionDomain().getCodeSource().getLocation());
        modules = classes.stream()
                .map(JavaClass::getPackageName)
                .filter(p -> p.startsWith(ROOT + "."))
                .map(p -> p.substring(ROOT.length() + 1))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void modulesAreFreeOfCycles() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void everyModuleDeclaresItsAllowedDependenciesAmongKnownModules() {
        Map<String, Set<String>> allowed = allowed();
        assertThat(allowed.keySet()).containsExactlyInAnyOrderElementsOf(modules);
        allowed.forEach((module, uses) -> assertThat(uses)
                .as("modules named in %s's package-info.java", module)
                .isSubsetOf(modules)
                .doesNotContain(module));
    }

    @Test
    void eachModuleUsesOnlyTheModulesItsNoteAllows() {
        allowed().forEach((module, uses) -> {
            String[] permitted = Stream.concat(Stream.of(module), uses.stream())
                    .map(m -> ROOT + "." + m)
                    .toArray(String[]::new);
            noClasses().that().resideInAPackage(ROOT + "." + module)
                    .should().dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAnyPackage(permitted))))
                    .because("package-info.java of " + module + " allows only " + uses)
                    .check(classes);
        });
    }

    /** PostIndex's write side is the indexer's alone (issue 18): every other module reads the index only. */
    @Test
    void onlyTheIndexerWritesTheIndex() {
        noClasses().that().resideOutsideOfPackages(ROOT + ".search", ROOT + ".cdc")
                .should().dependOnClassesThat().belongToAnyOf(dev.hanwiki.search.PostIndexWriter.class)
                .because("only the change consumer (cdc) writes this node's index")
                .check(classes);
    }

    /** Module -> the modules its note allows, for every module that has classes. */
    static Map<String, Set<String>> allowed() {
        Map<String, Set<String>> allowed = new TreeMap<>();
        for (String module : modules) {
            Path note = SOURCES.resolve((ROOT + "." + module).replace('.', '/')).resolve("package-info.java");
            String text;
            try {
                text = Files.readString(note);
            } catch (IOException e) {
                throw new UncheckedIOException("every module needs a package-info.java: " + note, e);
            }
            Matcher line = ALLOWED_LINE.matcher(text);
            assertThat(line.find()).as("%s has a line ' * <p>Allowed dependencies (ModuleGraphTest, ADR 0075): a, b.'"
                    + " (or 'none.')", note).isTrue();
            String list = line.group(1).trim();
            allowed.put(module, list.equals("none") ? Set.of()
                    : Arrays.stream(list.split(",\\s*")).collect(Collectors.toCollection(TreeSet::new)));
        }
        return allowed;
    }
}
