import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a node's CPU went, from a JFR recording (issue 14: "profile where the CPU goes").
 *
 * <pre>java infra/bench/JfrSummary.java [--top N] [--prefix P,P2] FILE.jfr [FILE2.jfr ...]</pre>
 *
 * <p>Prints, per file:
 * <ol>
 *   <li>the process's CPU from {@code jdk.CPULoad} (mean cores, user + system) and how much of it
 *       the Java threads account for ({@code jdk.ThreadCPULoad}); the rest is GC, JIT and other
 *       VM threads;</li>
 *   <li>CPU per thread group (digits in thread names folded, so {@code http-nio-8081-exec-*} is
 *       one group), from {@code jdk.ThreadCPULoad};</li>
 *   <li>per busiest thread group, the share of its execution samples ({@code jdk.ExecutionSample})
 *       that have each method on the stack (inclusive, once per sample), for the methods whose
 *       class starts with one of the prefixes (the project and the libraries a request or a change
 *       goes through), and the top leaf methods (self time) whatever their class.</li>
 * </ol>
 * Samples say where threads ran Java code; they do not see time in native code or waiting, which
 * is why the per-thread CPU comes from the CPU-load events instead.
 */
public final class JfrSummary {

    private static final List<String> DEFAULT_PREFIXES = List.of(
            "dev.hanwiki.",
            "org.apache.lucene.index.IndexWriter.", "org.apache.lucene.index.DocumentsWriter",
            "org.apache.lucene.index.StandardDirectoryReader.", "org.apache.lucene.search.IndexSearcher.",
            "org.apache.lucene.search.SearcherManager.", "org.apache.lucene.search.ReferenceManager.",
            "org.apache.lucene.analysis.ko.", "org.apache.lucene.codecs.",
            "com.fasterxml.jackson.databind.ObjectMapper.", "tools.jackson.databind.ObjectMapper.",
            "org.mariadb.jdbc.", "com.zaxxer.hikari.", "io.lettuce.core.RedisChannelHandler.",
            "org.springframework.security.web.FilterChainProxy.", "org.springframework.web.servlet.DispatcherServlet.",
            "org.apache.kafka.clients.consumer.KafkaConsumer.", "io.micrometer.", "ch.qos.logback.",
            "org.apache.coyote.", "org.apache.catalina.connector.CoyoteAdapter.");

    private JfrSummary() {
    }

    public static void main(String[] args) throws IOException {
        int top = 25;
        List<String> prefixes = DEFAULT_PREFIXES;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--top" -> top = Integer.parseInt(args[++i]);
                case "--prefix" -> prefixes = List.of(args[++i].split(","));
                default -> files.add(Path.of(args[i]));
            }
        }
        if (files.isEmpty()) {
            System.err.println("usage: java JfrSummary.java [--top N] [--prefix P,P2] FILE.jfr ...");
            System.exit(2);
        }
        for (Path file : files) {
            summarise(file, top, prefixes);
        }
    }

    /** Thread name with runs of digits folded to '#': one group per pool. */
    static String group(String threadName) {
        return threadName == null ? "?" : threadName.replaceAll("[0-9]+", "#");
    }

    /**
     * Whose code a sample ran: the first three package names of the innermost frame that is not
     * the JDK's (a HashMap lookup inside Spring Security counts as Spring Security's).
     */
    static String library(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String type = f.getMethod().getType().getName();
            if (!(type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun."))) {
                String[] parts = type.split("\\.");
                return String.join(".", java.util.Arrays.copyOf(parts, Math.min(3, parts.length - 1)));
            }
        }
        return "(JDK only)";
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static void summarise(Path file, int top, List<String> prefixes) throws IOException {
        double procCoreSum = 0;
        int procEvents = 0;
        int cores = Runtime.getRuntime().availableProcessors();
        // per thread: sum and count of its (user + system) load events, in cores; a thread's CPU is
        // their mean, a group's the sum of its threads' means
        Map<Long, List<double[]>> threadLoads = new HashMap<>(); // {epoch ms, cores}
        Map<Long, String> threadGroup = new HashMap<>();
        Map<String, Integer> samples = new HashMap<>();
        Map<String, Map<String, Integer>> inclusive = new HashMap<>();
        Map<String, Map<String, Integer>> self = new HashMap<>();
        Map<String, Map<String, Integer>> library = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            switch (type) {
                case "jdk.CPULoad" -> {
                    procCoreSum += (e.getFloat("jvmUser") + e.getFloat("jvmSystem")) * cores;
                    procEvents++;
                }
                case "jdk.ThreadCPULoad" -> {
                    RecordedThread t = e.getThread("eventThread");
                    String g = group(t == null ? null : t.getJavaName());
                    // load is a share of the whole machine; times cores = cores of this thread
                    long id = t == null ? -1 : t.getJavaThreadId();
                    threadGroup.put(id, g);
                    threadLoads.computeIfAbsent(id, k -> new ArrayList<>()).add(new double[] {
                        e.getStartTime().toEpochMilli(), (e.getFloat("user") + e.getFloat("system")) * cores});
                }
                case "jdk.ExecutionSample" -> {
                    RecordedThread t = e.getThread("sampledThread");
                    String g = group(t == null ? null : t.getJavaName());
                    samples.merge(g, 1, Integer::sum);
                    List<RecordedFrame> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
                    if (!frames.isEmpty()) {
                        self.computeIfAbsent(g, k -> new HashMap<>()).merge(name(frames.get(0)), 1, Integer::sum);
                        library.computeIfAbsent(g, k -> new HashMap<>()).merge(library(frames), 1, Integer::sum);
                    }
                    Set<String> seen = new HashSet<>();
                    for (RecordedFrame f : frames) {
                        String n = name(f);
                        if (prefixes.stream().anyMatch(n::startsWith) && seen.add(n)) {
                            inclusive.computeIfAbsent(g, k -> new HashMap<>()).merge(n, 1, Integer::sum);
                        }
                    }
                }
                default -> { }
            }
        }
        Map<String, Double> threadLoad = new HashMap<>();
        Map<String, Integer> threadCount = new HashMap<>();
        threadLoads.forEach((id, loads) -> {
            // A thread's first event covers the time since it started, before the recording: left
            // out when the thread has later ones (record longer than the 10 s period).
            // A thread with one event only (a short-lived merge thread) has no figure of its own:
            // its CPU is in the process's and in its group's execution samples.
            loads.sort((a, b) -> Double.compare(a[0], b[0]));
            threadCount.merge(threadGroup.get(id), 1, Integer::sum);
            if (loads.size() > 1) {
                double mean = loads.subList(1, loads.size()).stream().mapToDouble(l -> l[1]).average().orElse(0);
                threadLoad.merge(threadGroup.get(id), mean, Double::sum);
            }
        });
        System.out.printf("== %s%n", file);
        double proc = procEvents == 0 ? Double.NaN : procCoreSum / procEvents;
        double javaThreads = threadLoad.values().stream().mapToDouble(Double::doubleValue).sum(); // long-lived only
        System.out.printf("process CPU %.3f cores (jdk.CPULoad, %d samples); long-lived Java threads %.3f; the rest"
                + " (GC, JIT, VM, short-lived threads) %.3f%n",
                proc, procEvents, javaThreads, proc - javaThreads);
        System.out.println();
        int allSamples = samples.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("per thread group: cores (jdk.ThreadCPULoad every 10 s, threads that lived > 10 s in the"
                + " recording; '-' none did), Java execution samples and their share:");
        samples.keySet().stream().filter(g -> !threadLoad.containsKey(g)).forEach(g -> threadLoad.put(g, Double.NaN));
        threadLoad.entrySet().stream()
                .sorted((a, b) -> Integer.compare(samples.getOrDefault(b.getKey(), 0), samples.getOrDefault(a.getKey(), 0)) != 0
                        ? Integer.compare(samples.getOrDefault(b.getKey(), 0), samples.getOrDefault(a.getKey(), 0))
                        : Double.compare(b.getValue(), a.getValue()))
                .limit(top)
                .forEach(en -> System.out.printf("  %7s  %6d %5.1f%%  %s (%d threads)%n",
                        en.getValue().isNaN() ? "-" : String.format("%.3f", en.getValue()),
                        samples.getOrDefault(en.getKey(), 0), 100.0 * samples.getOrDefault(en.getKey(), 0) / Math.max(1, allSamples),
                        en.getKey(), threadCount.getOrDefault(en.getKey(), 0)));
        List<String> busiest = samples.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(6).map(Map.Entry::getKey).collect(Collectors.toList());
        for (String g : busiest) {
            int n = samples.get(g);
            System.out.printf("%n-- %s: %d samples%n  inclusive (share of its samples):%n", g, n);
            print(inclusive.getOrDefault(g, Map.of()), n, top);
            System.out.println("  self, by the package of the innermost frame outside the JDK:");
            print(library.getOrDefault(g, Map.of()), n, Math.min(top, 15));
            System.out.println("  self (leaf frames):");
            print(self.getOrDefault(g, Map.of()), n, Math.min(top, 15));
        }
        System.out.println();
    }

    private static void print(Map<String, Integer> counts, int total, int top) {
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(top)
                .forEach(en -> System.out.printf("    %5.1f%%  %s%n", 100.0 * en.getValue() / total, en.getKey()));
    }
}
