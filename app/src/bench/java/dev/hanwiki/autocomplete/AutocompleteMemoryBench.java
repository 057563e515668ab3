package dev.hanwiki.autocomplete;

import dev.hanwiki.search.Popularity;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Not a test: {@code make bench-autocomplete} pipes generated titles ({@code id, views, likes,
 * title} per line) through this and the output (Redis protocol) into {@code redis-cli --pipe}
 * against a scratch Redis. It issues exactly what a rebuild writes for each title (the record
 * in its hash, then every prefix key: add and trim to {@code keep}), with the app's own
 * {@link PrefixKeys}, so the memory it leaves is what the shards hold for those titles.
 * Arguments: {@code [maxKeyChars] [keep]} (defaults are the app's: 10 and 20). Prints the key
 * count it wrote to stderr.
 */
public final class AutocompleteMemoryBench {

    private AutocompleteMemoryBench() {
    }

    public static void main(String[] args) throws IOException {
        int maxKeyChars = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int keep = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        PrefixKeys keys = new PrefixKeys(maxKeyChars);
        long version = 1;
        long titles = 0;
        long entries = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
             OutputStream out = new BufferedOutputStream(System.out, 1 << 20)) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split("\t", 4);
                if (f.length < 4) {
                    continue;
                }
                long id = Long.parseLong(f[0]);
                double score = Popularity.score(Long.parseLong(f[1]), Long.parseLong(f[2]));
                String member = Long.toString(id);
                command(out, "HSET", TitleStore.recordKey(version, id), member, "1:" + score + ":" + f[3]);
                for (String suffix : keys.keysOf(f[3])) {
                    String key = TitleStore.key(version, suffix);
                    command(out, "ZADD", key, Double.toString(score), member);
                    command(out, "ZREMRANGEBYRANK", key, "0", Integer.toString(-(keep + 1)));
                    entries++;
                }
                titles++;
                if (titles % 100_000 == 0) {
                    System.err.printf("  keyed %,d titles (%,d prefix entries)%n", titles, entries);
                }
            }
        }
        System.err.printf("keyed %,d titles: %,d prefix entries before trimming%n", titles, entries);
    }

    private static void command(OutputStream out, String... parts) throws IOException {
        out.write(('*' + Integer.toString(parts.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String part : parts) {
            byte[] b = part.getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.write('\r');
            out.write('\n');
        }
    }
}
