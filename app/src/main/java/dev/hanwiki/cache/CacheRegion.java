package dev.hanwiki.cache;

import java.time.Duration;

/**
 * One kind of cached value and how long it may live in each tier. TTLs get random jitter
 * (up to {@code jitter} of their length, downwards) so that entries written together do not
 * expire together and send a herd to the origin.
 *
 * @param name        short region name, part of every key ({@code hw:<format>:<name>:<key>})
 * @param l1Ttl       lifetime in this node's memory
 * @param l2Ttl       lifetime in Redis
 * @param negativeTtl lifetime of an "absent" answer (e.g. 404) in both tiers
 * @param l1MaxBytes  this region's share of L1, by serialized size
 * @param jitter      fraction (0-0.5) by which each TTL is randomly shortened
 */
public record CacheRegion(String name, Duration l1Ttl, Duration l2Ttl, Duration negativeTtl, long l1MaxBytes,
        double jitter) {

    public CacheRegion {
        if (!name.matches("[a-z0-9-]{1,32}")) {
            throw new IllegalArgumentException("region name must be a short lowercase token: " + name);
        }
        if (jitter < 0 || jitter > 0.5) {
            throw new IllegalArgumentException("jitter must be within 0..0.5: " + jitter);
        }
        if (l1Ttl.isNegative() || l1Ttl.isZero() || l2Ttl.isNegative() || l2Ttl.isZero()
                || negativeTtl.isNegative() || negativeTtl.isZero() || l1MaxBytes <= 0) {
            throw new IllegalArgumentException("TTLs and size must be positive in region " + name);
        }
    }
}
