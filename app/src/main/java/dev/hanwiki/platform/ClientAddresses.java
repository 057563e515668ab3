package dev.hanwiki.platform;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.security.web.util.matcher.IpAddressMatcher;
import org.springframework.stereotype.Component;

/**
 * Where a request comes from. Nodes are reached through nginx, which sends the client's
 * address as {@code X-Real-IP}; that header is believed only when the connection itself comes
 * from a trusted proxy, so a client that reaches a node directly cannot pick its own address.
 */
@Component
public class ClientAddresses {

    /** Longer than any IPv6 literal; a longer header is not an address and is cut. */
    private static final int MAX_LENGTH = 64;

    private final List<IpAddressMatcher> proxies;
    private final List<IpAddressMatcher> operators;

    ClientAddresses(ExposureSettings settings) {
        this.proxies = settings.trustedProxies().stream().map(IpAddressMatcher::new).toList();
        this.operators = settings.operators().stream().map(IpAddressMatcher::new).toList();
    }

    /** The client's address: nginx's X-Real-IP from a trusted proxy, else the peer's. */
    public String client(HttpServletRequest request) {
        String peer = request.getRemoteAddr();
        String forwarded = request.getHeader("X-Real-IP");
        if (forwarded != null && !forwarded.isBlank() && matches(proxies, peer)) {
            String address = forwarded.strip();
            return address.length() > MAX_LENGTH ? address.substring(0, MAX_LENGTH) : address;
        }
        return peer;
    }

    /** The connection comes from an operator's address (never judged by a header). */
    boolean fromOperator(HttpServletRequest request) {
        return matches(operators, request.getRemoteAddr());
    }

    private static boolean matches(List<IpAddressMatcher> matchers, String address) {
        for (IpAddressMatcher m : matchers) {
            if (m.matches(address)) {
                return true;
            }
        }
        return false;
    }
}
