package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.Cookie;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

class ReadYourWritesTest {

    private final ReadYourWrites readYourWrites = new ReadYourWrites(ReplicaReadsTest.SETTINGS);

    private static MockHttpServletResponse bind(MockHttpServletRequest request) {
        MockHttpServletResponse response = new MockHttpServletResponse();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, response));
        return response;
    }

    @AfterEach
    void clearRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    @Test
    void aWriteHandsItsPositionToTheClientAsCookieAndHeader() {
        MockHttpServletResponse response = bind(new MockHttpServletRequest("PUT", "/api/v1.0/posts/1"));

        readYourWrites.wrote("0-1-1234");

        Cookie cookie = response.getCookie(ReadYourWrites.COOKIE);
        assertThat(cookie).isNotNull();
        assertThat(cookie.isHttpOnly()).isTrue();
        assertThat(cookie.getMaxAge()).isEqualTo(60);
        assertThat(cookie.getAttribute("SameSite")).isEqualTo("Lax");
        assertThat(response.getHeader(ReadYourWrites.HEADER)).isEqualTo(cookie.getValue());
    }

    @Test
    void theCookieIsSecureExactlyWhenTheSettingsSaySo() {
        assertThat(bindAndWrite(readYourWrites).getCookie(ReadYourWrites.COOKIE).getSecure()).isFalse();

        ReadRoutingSettings s = ReplicaReadsTest.SETTINGS;
        ReadYourWrites secure = new ReadYourWrites(new ReadRoutingSettings(s.maxReplicaLag(), s.probeInterval(), s.syncWait(),
                s.syncMaxAge(), s.gtidFlavor(), s.syncSecret(), true));
        assertThat(bindAndWrite(secure).getCookie(ReadYourWrites.COOKIE).getSecure()).isTrue();
    }

    /**
     * One rule for both cookies: application.yml binds hanwiki.read-routing.cookie-secure to the
     * token cookie's hanwiki.auth.cookie-secure, however it is given (property or the compose
     * deployment's environment variable).
     */
    @ParameterizedTest
    @CsvSource({"hanwiki.auth.cookie-secure,true,true", "HANWIKI_AUTH_COOKIESECURE,true,true",
        "hanwiki.auth.cookie-secure,false,false", "unrelated,true,false"})
    void theCookieFollowsTheTokenCookieSetting(String name, String value, boolean expected) throws IOException {
        StandardEnvironment environment = new StandardEnvironment();
        MutablePropertySources sources = environment.getPropertySources();
        sources.addFirst(name.contains("_")
                ? new SystemEnvironmentPropertySource("test-systemEnvironment", Map.of(name, value))
                : new MapPropertySource("given", Map.of(name, value)));
        for (PropertySource<?> yaml : new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"))) {
            sources.addLast(yaml);
        }
        ConfigurationPropertySources.attach(environment);

        assertThat(Binder.get(environment).bind("hanwiki.read-routing.cookie-secure", Boolean.class).get()).isEqualTo(expected);
    }

    private static MockHttpServletResponse bindAndWrite(ReadYourWrites readYourWrites) {
        MockHttpServletResponse response = bind(new MockHttpServletRequest("PUT", "/api/v1.0/posts/1"));
        readYourWrites.wrote("0-1-1234");
        return response;
    }

    @Test
    void theNextRequestCarryingTheCookieRequiresThatPosition() {
        MockHttpServletResponse write = bind(new MockHttpServletRequest("PUT", "/api/v1.0/posts/1"));
        readYourWrites.wrote("0-1-1234,1-2-7");
        String token = write.getHeader(ReadYourWrites.HEADER);

        MockHttpServletRequest read = new MockHttpServletRequest("GET", "/api/v1.0/posts/1");
        read.setCookies(new Cookie(ReadYourWrites.COOKIE, token));
        bind(read);

        assertThat(readYourWrites.requiredPosition()).contains("0-1-1234,1-2-7");
    }

    @Test
    void onceReachedTheRestOfTheRequestNeedsNoFurtherCheck() {
        MockHttpServletRequest read = new MockHttpServletRequest("GET", "/api/v1.0/posts/1");
        read.addHeader(ReadYourWrites.HEADER, readYourWrites.sign("0-1-5"));
        bind(read);
        assertThat(readYourWrites.requiredPosition()).contains("0-1-5");

        readYourWrites.reached();

        assertThat(readYourWrites.requiredPosition()).isEmpty();
    }

    @Test
    void garbageIsNoPosition() {
        for (String token : new String[] {"", "%%%", "bm90LWEtZ3RpZA", "x".repeat(5000)}) {
            MockHttpServletRequest read = new MockHttpServletRequest("GET", "/api/v1.0/posts/1");
            read.addHeader(ReadYourWrites.HEADER, token);
            bind(read);
            assertThat(readYourWrites.requiredPosition()).as(token).isEmpty();
        }
    }

    @Test
    void aPositionThisSystemDidNotIssueIsIgnored() {
        String genuine = readYourWrites.sign("0-1-5");
        String otherInstall = new ReadYourWrites(new ReadRoutingSettings(ReplicaReadsTest.SETTINGS.maxReplicaLag(),
                ReplicaReadsTest.SETTINGS.probeInterval(), ReplicaReadsTest.SETTINGS.syncWait(),
                ReplicaReadsTest.SETTINGS.syncMaxAge(), GtidFlavor.MARIADB, "another-install")).sign("0-1-5");
        String[] forged = {
            "MC0xLTU", // the bare base64url of 0-1-5, as positions were before they were signed
            "MC0xLTk" + genuine.substring(genuine.indexOf('.')), // 0-1-9 with the tag of 0-1-5
            otherInstall,
            genuine.substring(0, genuine.length() - 2) + (genuine.endsWith("AA") ? "BA" : "AA"),
        };
        for (String token : forged) {
            MockHttpServletRequest read = new MockHttpServletRequest("GET", "/api/v1.0/posts/1");
            read.addHeader(ReadYourWrites.HEADER, token);
            bind(read);
            assertThat(readYourWrites.requiredPosition()).as(token).isEmpty();
        }
    }

    @Test
    void outsideARequestNothingIsRequiredAndNothingIsSent() {
        readYourWrites.wrote("0-1-9");

        assertThat(readYourWrites.requiredPosition()).isEmpty();
    }
}
