package dev.hanwiki.platform;

import jakarta.validation.constraints.NotEmpty;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.security.web.util.matcher.IpAddressMatcher;
import org.springframework.validation.annotation.Validated;

/**
 * {@code hanwiki.exposure.*}: who may reach what on a node (docs/security.md, ADR 0052).
 *
 * @param operators      addresses or CIDRs that may call the actuator (management port) and
 *                       {@code /internal/*}: the node's own host, the monitoring host and the
 *                       operators' network. Everyone else gets 403.
 * @param trustedProxies addresses whose {@code X-Real-IP} names the client (nginx's); from any
 *                       other peer the header is ignored and the connection's address counts.
 */
@Validated
@ConfigurationProperties("hanwiki.exposure")
public record ExposureSettings(
        @NotEmpty @DefaultValue({"127.0.0.1/32", "::1/128"}) List<String> operators,
        @NotEmpty @DefaultValue({"127.0.0.1/32", "::1/128"}) List<String> trustedProxies) {

    public ExposureSettings {
        operators = List.copyOf(operators);
        trustedProxies = List.copyOf(trustedProxies);
        // A malformed entry fails the start, not the first request.
        operators.forEach(IpAddressMatcher::new);
        trustedProxies.forEach(IpAddressMatcher::new);
    }
}
