package dev.hanwiki;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.hanwiki.lifecycle.Background;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle convention (ADR 0092): threads and executors are made in
 * {@code dev.hanwiki.lifecycle} only, and every bean with a lifecycle is a
 * {@link Background}, which makes its thread in {@code start()}, never in a constructor, and
 * stops it in phase order. {@link #violationsAreCaught()} shows each rule failing on a class that
 * breaks it.
 */
class LifecycleConventionTest {

    static final String LIFECYCLE = "dev.hanwiki.lifecycle..";

    /** Types whose use means "a thread of one's own". */
    static final Set<String> THREAD_MAKERS = Set.of(
            "java.util.concurrent.Executors",
            "java.util.concurrent.ThreadPoolExecutor",
            "java.util.concurrent.ScheduledThreadPoolExecutor",
            "java.util.concurrent.ForkJoinPool",
            "java.util.Timer",
            "java.lang.Thread$Builder",
            "java.lang.Thread$Builder$OfPlatform",
            "java.lang.Thread$Builder$OfVirtual");

    /** Methods of {@link Thread} that make or start threads. */
    static final Set<String> THREAD_METHODS = Set.of("ofPlatform", "ofVirtual", "startVirtualThread", "start");

    static final ArchRule NO_THREADS_OUTSIDE_LIFECYCLE = noClasses()
            .that().resideOutsideOfPackage(LIFECYCLE)
            .should().dependOnClassesThat(DescribedPredicate.describe("make threads (" + THREAD_MAKERS + ")",
                    (JavaClass c) -> THREAD_MAKERS.contains(c.getFullName())))
            .orShould().callMethodWhere(DescribedPredicate.describe("Thread." + THREAD_METHODS,
                    (JavaMethodCall m) -> m.getTargetOwner().getFullName().equals("java.lang.Thread")
                            && THREAD_METHODS.contains(m.getName())))
            .orShould().callConstructorWhere(DescribedPredicate.describe("new Thread",
                    (JavaConstructorCall c) -> c.getTargetOwner().getFullName().equals("java.lang.Thread")))
            .because("background work goes through dev.hanwiki.lifecycle (ADR 0092)");

    static final ArchRule LIFECYCLES_ARE_BACKGROUND = classes()
            .that().resideOutsideOfPackage(LIFECYCLE)
            .and(DescribedPredicate.describe("have a Spring lifecycle", (JavaClass c) -> c.getAllRawInterfaces().stream()
                    .anyMatch(i -> i.getFullName().startsWith("org.springframework.context.") && i.getSimpleName().endsWith("Lifecycle"))))
            .should().beAssignableTo(Background.class)
            .because("one lifecycle convention: start() makes the thread, stop() ends it in phase order (ADR 0092)");

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importUrl(HanwikiApplication.class.getProtectionDomain().getCodeSource().getLocation());
    }

    @Test
    void onlyTheLifecyclePackageMakesThreads() {
        NO_THREADS_OUTSIDE_LIFECYCLE.check(main);
    }

    @Test
    void everyLifecycleBeanIsABackground() {
        LIFECYCLES_ARE_BACKGROUND.check(main);
    }

    @Test
    void violationsAreCaught() {
        JavaClasses bad = new ClassFileImporter().importClasses(Violations.StartsAThread.class,
                Violations.MakesAnExecutor.class, Violations.OwnLifecycle.class);
        org.assertj.core.api.Assertions.assertThat(NO_THREADS_OUTSIDE_LIFECYCLE.evaluate(bad).getFailureReport().getDetails())
                .anyMatch(line -> line.contains("StartsAThread") && line.contains("ofPlatform"))
                .anyMatch(line -> line.contains("StartsAThread") && line.contains("constructor <java.lang.Thread.<init>"))
                .anyMatch(line -> line.contains("MakesAnExecutor") && line.contains("Executors"));
        org.assertj.core.api.Assertions.assertThat(LIFECYCLES_ARE_BACKGROUND.evaluate(bad).getFailureReport().getDetails())
                .anyMatch(line -> line.contains("OwnLifecycle"));
    }

    /** Classes that break the convention, for {@link #violationsAreCaught()}. */
    static final class Violations {

        static final class StartsAThread {
            StartsAThread() {
                Thread.ofPlatform().name("rogue").start(() -> { });
                new Thread(() -> { }).start();
            }
        }

        static final class MakesAnExecutor {
            final java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(1);
        }

        static final class OwnLifecycle implements org.springframework.context.SmartLifecycle {
            @Override
            public void start() {
            }

            @Override
            public void stop() {
            }

            @Override
            public boolean isRunning() {
                return false;
            }
        }
    }
}
