package dev.hanwiki.search;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Scratch: single-thread indexing throughput over lines of text (one page per line). */
public final class IndexingBench {
    public static void main(String[] args) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        int n = Math.min(lines.size(), Integer.parseInt(args[1]));
        List<PostDocument> docs = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            String c = lines.get(i);
            bytes += c.getBytes(StandardCharsets.UTF_8).length;
            docs.add(new PostDocument(i + 1, "제목 " + i + " 서울 여행", c, (long) (i % 30 + 1), 1, i % 1000, i % 50,
                    Instant.parse("2024-01-01T00:00:00Z"), Instant.parse("2024-01-01T00:00:00Z"), 1));
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Path dir = Files.createTempDirectory("ib");
        try (PostIndex index = new PostIndex(SearchSettings.at(dir))) {
            index.bulkMode(true);
            long cpu0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            for (PostDocument d : docs) {
                index.upsert(d);
            }
            index.bulkMode(false);
            long cpu = mx.getCurrentThreadCpuTime() - cpu0;
            double wall = (System.nanoTime() - t0) / 1e9;
            System.out.printf("%d docs, %.1f MB: wall %.1f s, thread cpu %.1f s => %.2f MB/s per core (wall %.2f MB/s)%n",
                    n, bytes / 1e6, wall, cpu / 1e9, bytes / 1e6 / (cpu / 1e9), bytes / 1e6 / wall);
        }
    }
}
