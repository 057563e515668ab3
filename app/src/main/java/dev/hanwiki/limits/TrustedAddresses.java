package dev.hanwiki.limits;

import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * The operator's own load generators ({@code hanwiki.limits.trusted-addresses}, empty by
 * default; nginx has the same list): exempt from per-address ceilings and per-user write
 * limits, so a stress run measures the service rather than its limits. Never exempt from the
 * per-account login throttle, which protects the account, not the service.
 */
@Component
public class TrustedAddresses {

    private final Set<String> addresses;

    TrustedAddresses(LimitSettings settings) {
        this.addresses = Set.copyOf(settings.trustedAddresses().stream().map(String::strip).toList());
    }

    public boolean contains(String address) {
        return addresses.contains(address);
    }
}
