package dev.hanwiki.platform;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.util.Base64;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.util.WebUtils;

/**
 * Session consistency across stateless nodes. A write hands its client the primary's GTID
 * position of that commit (cookie {@code hw_sync}, and header {@code X-Hanwiki-Sync} for
 * clients without cookies). Later reads that carry it are served by the replica only once the
 * replica has applied that position, otherwise by the primary, so whichever node answers, the
 * writer sees its own write. The position is opaque to clients: base64url of the position, a
 * dot, and an HMAC-SHA256 tag over it with a per-install key (ADR 0087). A node honours only a
 * position this system issued (the tag checks, in constant time) that also matches the GTID
 * grammar; anything else is ignored, so a forged position can neither hold a replica
 * connection nor send reads past the caches to the primary. The wait itself is bounded by
 * {@code sync-wait}.
 */
@Component
public class ReadYourWrites {

    static final String COOKIE = "hw_sync";
    static final String HEADER = "X-Hanwiki-Sync";
    private static final String POSITION = ReadYourWrites.class.getName() + ".position";
    private static final String REACHED = ReadYourWrites.class.getName() + ".reached";

    private static final String MAC = "HmacSHA256";
    /** Tag bytes kept: 128 bits, far past guessing. */
    private static final int TAG_BYTES = 16;

    private final ReadRoutingSettings settings;
    private final SecretKeySpec key;

    ReadYourWrites(ReadRoutingSettings settings) {
        this.settings = settings;
        this.key = new SecretKeySpec(hmac(new SecretKeySpec(settings.syncSecret().strip().getBytes(StandardCharsets.UTF_8), MAC),
                "hanwiki read-your-writes position v1".getBytes(StandardCharsets.US_ASCII)), MAC);
    }

    /** Hands the position of a commit made for the current request to its client. */
    void wrote(String position) {
        ServletRequestAttributes current = current();
        if (current == null || !settings.gtidFlavor().isPosition(position)) {
            return;
        }
        current.getRequest().setAttribute(POSITION, position);
        current.getRequest().removeAttribute(REACHED);
        HttpServletResponse response = current.getResponse();
        if (response == null || response.isCommitted()) {
            return;
        }
        String token = sign(position);
        response.setHeader(HEADER, token);
        response.addHeader(HttpHeaders.SET_COOKIE, ResponseCookie.from(COOKIE, token)
                .path("/").httpOnly(true).secure(settings.cookieSecure()).sameSite("Lax").maxAge(settings.syncMaxAge())
                .build().toString());
    }

    /** The write position the current request must see, if its client wrote recently. */
    Optional<String> requiredPosition() {
        HttpServletRequest request = currentRequest();
        if (request == null || request.getAttribute(REACHED) != null) {
            return Optional.empty();
        }
        if (request.getAttribute(POSITION) instanceof String position) {
            return Optional.of(position);
        }
        String token = request.getHeader(HEADER);
        if (token == null) {
            Cookie cookie = WebUtils.getCookie(request, COOKIE);
            token = cookie == null ? null : cookie.getValue();
        }
        Optional<String> position = decode(token);
        position.ifPresent(p -> request.setAttribute(POSITION, p));
        return position;
    }

    /**
     * Whether the current request's client wrote recently (carries a write position): shared
     * caches must not answer it, since they may not have seen that write yet.
     */
    public boolean carriesWritePosition() {
        return requiredPosition().isPresent();
    }

    /** The replica has applied the required position: later reads of this request need not check again. */
    void reached() {
        HttpServletRequest request = currentRequest();
        if (request != null) {
            request.setAttribute(REACHED, Boolean.TRUE);
        }
    }

    String sign(String position) {
        byte[] bytes = position.getBytes(StandardCharsets.US_ASCII);
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        return encoder.encodeToString(bytes) + "." + encoder.encodeToString(tag(bytes));
    }

    private Optional<String> decode(String token) {
        if (token == null || token.length() > 4096) {
            return Optional.empty();
        }
        int dot = token.indexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(token.substring(0, dot));
            byte[] presented = Base64.getUrlDecoder().decode(token.substring(dot + 1));
            if (!MessageDigest.isEqual(presented, tag(bytes))) {
                return Optional.empty();
            }
            String position = new String(bytes, StandardCharsets.US_ASCII);
            return settings.gtidFlavor().isPosition(position) ? Optional.of(position) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private byte[] tag(byte[] bytes) {
        return Arrays.copyOf(hmac(key, bytes), TAG_BYTES);
    }

    private static byte[] hmac(SecretKeySpec key, byte[] bytes) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(key);
            return mac.doFinal(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static HttpServletRequest currentRequest() {
        ServletRequestAttributes current = current();
        return current == null ? null : current.getRequest();
    }

    /** Null outside a request (background threads such as the view flusher). */
    private static ServletRequestAttributes current() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        return attributes instanceof ServletRequestAttributes servlet ? servlet : null;
    }
}
