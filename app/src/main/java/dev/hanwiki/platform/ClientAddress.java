package dev.hanwiki.platform;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The client's address as nginx saw it ({@code X-Real-IP}, which nginx always overwrites),
 * else the connection's peer. Nodes are reached through nginx only (they bind their host's
 * address, and the firewall of a deployment keeps it so); a node port exposed to clients
 * would let them name any address here.
 */
public final class ClientAddress {

    static final String HEADER = "X-Real-IP";
    /** Longer than any IPv6 literal; a longer header is not an address and is cut. */
    private static final int MAX_LENGTH = 64;

    private ClientAddress() {
    }

    public static String of(HttpServletRequest request) {
        String forwarded = request.getHeader(HEADER);
        String address = forwarded == null || forwarded.isBlank() ? request.getRemoteAddr() : forwarded.strip();
        return address.length() > MAX_LENGTH ? address.substring(0, MAX_LENGTH) : address;
    }
}
