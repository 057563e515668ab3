package dev.hanwiki.cache;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ExecutorService;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Builds one {@link TieredCache} per region over this node's shared L2 and load executor. */
@Component
public class TieredCaches {

    private final ShardedRedis l2;
    private final ExecutorService loads;
    private final JsonMapper json;
    private final MeterRegistry meters;

    TieredCaches(ShardedRedis l2, @Qualifier("cacheLoadExecutor") ExecutorService loads, JsonMapper json,
            MeterRegistry meters) {
        this.l2 = l2;
        this.loads = loads;
        this.json = json;
        this.meters = meters;
    }

    /** A region whose values are stored as (compressed when large) JSON of {@code type}. */
    public <V> TieredCache<V> region(CacheRegion region, Class<V> type) {
        return new TieredCache<>(region, l2, ValueCodec.deflated(ValueCodec.json(json, type)), loads, meters);
    }
}
