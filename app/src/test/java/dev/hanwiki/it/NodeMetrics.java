package dev.hanwiki.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What a node publishes on /actuator/prometheus, read sample by sample. */
final class NodeMetrics {

    private NodeMetrics() {
    }

    /** Node {@code n}'s /actuator/prometheus, whatever its status. */
    static Http.Response scrape(int n) {
        return Http.get(Stack.management(n) + "/actuator/prometheus");
    }

    /** One sample: its label text (what is between the braces, empty for none) and its value. */
    record Sample(String labels, double value) {
    }

    /**
     * Every sample of {@code name} in a scrape's text whose labels contain each of {@code labels}
     * (label fragments such as {@code pool="primary"}), in the order published.
     */
    static List<Sample> samples(String scrape, String name, String... labels) {
        List<Sample> samples = new ArrayList<>();
        for (String line : scrape.split("\n")) {
            String labelText;
            if (line.startsWith(name + "{") && line.indexOf('}') > 0) {
                labelText = line.substring(name.length() + 1, line.indexOf('}'));
            } else if (line.startsWith(name + " ")) {
                labelText = "";
            } else {
                continue;
            }
            if (Arrays.stream(labels).allMatch(labelText::contains)) {
                samples.add(new Sample(labelText, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))));
            }
        }
        return samples;
    }

    /** The values of {@link #samples}. */
    static List<Double> values(String scrape, String name, String... labels) {
        return samples(scrape, name, labels).stream().map(Sample::value).toList();
    }
}
