package dev.hanwiki.peer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.opensearch.Version;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.mapper.MapperExtrasModulePlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugin.analysis.nori.AnalysisNoriPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginInfo;
import org.opensearch.transport.Netty4ModulePlugin;

/**
 * One OpenSearch node, in this JVM, with the netty4 transport, mapper-extras (rank_feature) and the analysis-nori plugin on the
 * classpath (Maven Central publishes their jars, not the plugin zips a distribution installs).
 * {@link Node}'s protected constructor takes the plugins as {@link PluginInfo}s, the way
 * OpenSearch's test framework's MockNode starts nodes.
 * <pre>
 * java -cp ... dev.hanwiki.peer.PeerNode HOME HTTP_PORT
 * </pre>
 * Binds 127.0.0.1 only, single-node discovery, prints "PEER READY port" when the HTTP port
 * answers, and stops the node on SIGTERM (shutdown hook).
 */
public final class PeerNode {

    /** The plugins this node runs with, as the classpath provides them. */
    static final List<Class<? extends Plugin>> PLUGINS = List.of(Netty4ModulePlugin.class, AnalysisNoriPlugin.class, MapperExtrasModulePlugin.class);

    private PeerNode() {
    }

    static Settings settings(Path home, int httpPort) {
        return Settings.builder()
                .put("path.home", home.toString())
                .put("path.data", home.resolve("data").toString())
                .put("path.logs", home.resolve("logs").toString())
                .put("cluster.name", "hanwiki-peer")
                .put("node.name", "peer")
                .put("discovery.type", "single-node")
                .put("network.host", "127.0.0.1")
                .put("http.port", httpPort)
                .put("transport.port", httpPort + 100)
                .put("http.type", "netty4")
                .put("transport.type", "netty4")
                // A benchmark node on a shared disk: never go read-only because the disk is full-ish.
                .put("cluster.routing.allocation.disk.threshold_enabled", false)
                .put("action.auto_create_index", false)
                .build();
    }

    static List<PluginInfo> pluginInfos() {
        return PLUGINS.stream()
                .map(p -> new PluginInfo(p.getSimpleName(), "on the classpath", Version.CURRENT.toString(), Version.CURRENT,
                        Runtime.version().feature() + "", p.getName(), null, Collections.emptyList(), false))
                .toList();
    }

    /** The node, built but not started (a started node holds ports and files: close it). */
    static Node build(Path home, int httpPort) throws Exception {
        Files.createDirectories(home.resolve("config"));
        Settings settings = settings(home, httpPort);
        LogConfigurator.configureWithoutConfig(settings);
        Environment env = InternalSettingsPreparer.prepareEnvironment(settings, Collections.emptyMap(),
                home.resolve("config"), () -> "peer");
        return new Node(env, pluginInfos(), false) {
        };
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: PeerNode HOME HTTP_PORT");
            System.exit(2);
        }
        Node node = build(Path.of(args[0]).toAbsolutePath(), Integer.parseInt(args[1]));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "peer-stop"));
        node.start();
        System.out.println("PEER READY " + args[1]);
        System.out.flush();
        stopped.await();
    }
}
