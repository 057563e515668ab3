package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class ClientAddressesTest {

    private final ClientAddresses addresses = new ClientAddresses(new ExposureSettings(
            List.of("127.0.0.1/32", "198.18.0.2/32", "198.18.0.4/32"), List.of("198.18.0.2/32")));

    private static MockHttpServletRequest from(String peer, String realIp) {
        MockHttpServletRequest r = new MockHttpServletRequest("GET", "/api/v1.0/posts/search");
        r.setRemoteAddr(peer);
        if (realIp != null) {
            r.addHeader("X-Real-IP", realIp);
        }
        return r;
    }

    @Test
    void xRealIpFromNginxNamesTheClient() {
        assertThat(addresses.client(from("198.18.0.2", "203.0.113.7"))).isEqualTo("203.0.113.7");
    }

    @Test
    void xRealIpFromAnyOtherPeerIsIgnored() {
        assertThat(addresses.client(from("198.18.0.3", "203.0.113.7"))).isEqualTo("198.18.0.3");
        assertThat(addresses.client(from("198.18.0.3", null))).isEqualTo("198.18.0.3");
    }

    @Test
    void operatorsAreJudgedByThePeerNeverByAHeader() {
        assertThat(addresses.fromOperator(from("198.18.0.4", null))).isTrue();
        assertThat(addresses.fromOperator(from("198.18.0.3", null))).isFalse();
        assertThat(addresses.fromOperator(from("198.18.0.3", "127.0.0.1"))).isFalse();
    }

    @Test
    void aMalformedAddressFailsAtStartUp() {
        assertThatThrownBy(() -> new ExposureSettings(List.of("not-an-address/99"), List.of("127.0.0.1/32")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
