package dev.hanwiki.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * At least 100 hostile requests at every endpoint, through nginx: bad and hostile path values,
 * query values, bodies, headers, methods and raw bytes no client library would send. None may
 * get a 5xx; every error is a problem document with a code, a message repeating its detail, and
 * no internals. Afterwards no database connection may be left in use (pool metrics on both nodes).
 * Sent from the machine, a trusted load generator in the test stack, so nginx's per-address
 * ceilings never answer in the app's place (asserted); the target post is deleted last, so every
 * other endpoint sees it live.
 */
class HostileRequestsIT {

    private static final int MIN_PER_ENDPOINT = 100;

    /** Values for ids, query parameters and JSON fields. */
    private static final List<String> HOSTILE = List.of(
            "../../../../etc/passwd", "..\\..\\windows\\win.ini", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "....//....//etc/passwd",
            "' OR '1'='1", "1 OR 1=1", "1; DROP TABLE posts; --", "1' UNION SELECT password_hash FROM users --",
            "\" OR \"\"=\"", "1)) OR SLEEP(5)#", "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>",
            "${jndi:ldap://127.0.0.1/a}", "{{7*7}}", "#{7*7}", "%s%s%s%n", "`id`", "$(id)", "; ls -la", "| cat /etc/passwd",
            "-1", "0", "-0", "1.5", "1e9999", "NaN", "Infinity", "0x1F", "+1", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "99999999999999999999999999999", "null", "true", "[]", "{}", "", " ", "\t",
            "\u0000", "%00", "\r\nX-Injected: 1", "\uFEFF1", "🙂", "경복궁", "\uD800", "\uFFFF", "a".repeat(5000), "가".repeat(3000),
            "*", "?", "#", "//", ".", "..", "%", "%%", "\\");

    private static final List<String> BODIES = List.of(
            "", "{", "}", "[]", "null", "true", "42", "\"text\"", "{\"title\":", "{\"title\":\"t\",}", "{'title':'t'}",
            "{\"title\":null,\"content\":null}", "{\"title\":1,\"content\":2}", "{\"title\":[],\"content\":{}}",
            "{\"title\":\"t\",\"content\":\"c\",\"categoryId\":\"abc\"}", "{\"title\":\"t\",\"content\":\"c\",\"categoryId\":1e400}",
            "{\"title\":\"t\",\"content\":\"c\",\"categoryId\":-1}", "{\"title\":\"t\",\"content\":\"c\",\"categoryId\":99999999999999999999}",
            "{\"title\":\"t\",\"content\":\"c\",\"version\":\"x\"}", "{\"title\":\"t\",\"content\":\"c\",\"version\":-5}",
            "{\"title\":\"" + "t".repeat(513) + "\",\"content\":\"c\"}", "{\"title\":\"t\",\"content\":\"" + "c".repeat(1_048_577) + "\"}",
            "[".repeat(5000) + "]".repeat(5000), "{\"a\":".repeat(2000) + "1" + "}".repeat(2000),
            "{\"title\":\"t\",\"title\":\"u\",\"content\":\"c\"}", "{\"title\":\"\\ud800\",\"content\":\"\\u0000\"}",
            "\uFEFF{\"title\":\"t\",\"content\":\"c\"}", "{\"username\":\"' OR 1=1 --\",\"password\":\"x\"}",
            "{\"username\":{\"$ne\":null},\"password\":{\"$ne\":null}}", "{\"username\":\"admin\",\"password\":[\"a\",\"b\"]}",
            "{\"username\":\"" + "a".repeat(10_000) + "\",\"password\":\"" + "b".repeat(10_000) + "\",\"nickname\":\"x\"}");

    private record Endpoint(String method, String path, List<String> params, boolean body) {
    }

    private static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("POST", "/auth/signup", List.of(), true),
            new Endpoint("POST", "/auth/login", List.of(), true),
            new Endpoint("POST", "/auth/logout", List.of(), false),
            new Endpoint("GET", "/auth/me", List.of(), false),
            new Endpoint("GET", "/auth/check-username", List.of("value"), false),
            new Endpoint("GET", "/auth/check-nickname", List.of("value"), false),
            new Endpoint("GET", "/categories", List.of(), false),
            new Endpoint("GET", "/posts", List.of("categoryId", "page", "size"), false),
            new Endpoint("POST", "/posts", List.of(), true),
            new Endpoint("GET", "/posts/{id}", List.of(), false),
            new Endpoint("PUT", "/posts/{id}", List.of(), true),
            new Endpoint("POST", "/posts/{id}/like", List.of(), false),
            new Endpoint("DELETE", "/posts/{id}/like", List.of(), false),
            new Endpoint("GET", "/posts/search", List.of("q", "categoryId", "page", "size"), false),
            new Endpoint("GET", "/posts/autocomplete", List.of("prefix", "ids"), false),
            new Endpoint("GET", "/posts/{id}/revisions", List.of("page", "size"), false),
            new Endpoint("GET", "/posts/{id}/revisions/{rev}", List.of(), false),
            new Endpoint("GET", "/posts/{id}/diff", List.of("from", "to"), false),
            // Last: its first well-formed call deletes the target, which every endpoint above
            // must see live (likes, revisions and diffs of a deleted post are only 404s).
            new Endpoint("DELETE", "/posts/{id}", List.of(), false));

    private final SoftAssertions softly = new SoftAssertions();
    private final Map<String, Integer> sent = new LinkedHashMap<>();

    @Test
    void noHostileRequestGetsAServerErrorOrLeaksInternals() {
        Users.User user = Users.signUp();
        Users.User leaving = Users.signUp();
        long own = user.createPost("공격 대상 " + Users.random(5), "원본");

        for (Endpoint endpoint : ENDPOINTS) {
            String key = endpoint.method() + " " + endpoint.path();
            Users.User caller = endpoint.path().equals("/auth/logout") ? leaving : user;
            for (String value : HOSTILE) {
                // Hostile path values, anonymous and signed in.
                if (endpoint.path().contains("{")) {
                    String path = endpoint.path().replace("{id}", pathSegment(value)).replace("{rev}", "1");
                    check(key, () -> Http.call(endpoint.method(), url(path)).send());
                    check(key, () -> caller.send(caller.call(endpoint.method(), url(path))));
                    String revPath = endpoint.path().replace("{id}", Long.toString(own)).replace("{rev}", pathSegment(value));
                    check(key, () -> caller.send(caller.call(endpoint.method(), url(revPath))));
                }
                // Hostile query values, one parameter at a time.
                for (String param : endpoint.params()) {
                    String path = concrete(endpoint, own) + "?" + param + "=" + Http.enc(value);
                    check(key, () -> caller.send(caller.call(endpoint.method(), url(path))));
                }
                // Hostile field values in an otherwise well-formed body.
                if (endpoint.body()) {
                    Map<String, Object> fields = new LinkedHashMap<>();
                    for (String field : List.of("title", "content", "username", "nickname", "password")) {
                        fields.put(field, value);
                    }
                    check(key, () -> caller.send(caller.call(endpoint.method(), url(concrete(endpoint, own))).json(fields)));
                }
                // Hostile credentials, as header and as cookie.
                check(key, () -> Http.call(endpoint.method(), url(concrete(endpoint, own)))
                        .header("Authorization", "Bearer " + headerSafe(value)).send());
                check(key, () -> Http.call(endpoint.method(), url(concrete(endpoint, own)))
                        .header("Cookie", "token=" + headerSafe(value).replace(";", "")).send());
            }
            if (endpoint.body()) {
                for (String body : BODIES) {
                    check(key, () -> caller.send(caller.call(endpoint.method(), url(concrete(endpoint, own))).raw(body, "application/json")));
                }
                for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data",
                        "application/json; charset=ebcdic", "*/*", "garbage")) {
                    check(key, () -> caller.send(caller.call(endpoint.method(), url(concrete(endpoint, own)))
                            .raw("{\"title\":\"t\",\"content\":\"c\"}", type)));
                }
            }
            for (String accept : List.of("text/html", "application/xml", "image/png", "*/*;q=0", "garbage")) {
                check(key, () -> caller.send(caller.call(endpoint.method(), url(concrete(endpoint, own))).header("Accept", accept)));
            }
            for (String ifMatch : List.of("*", "\"x\"", "W/\"", "1, 2", "\"-1\"", "\"99999999999999999999\"")) {
                check(key, () -> caller.send(caller.call(endpoint.method(), url(concrete(endpoint, own))).header("If-Match", ifMatch)
                        .raw("{\"title\":\"t\",\"content\":\"c\"}", "application/json")));
            }
            for (String method : List.of("PATCH", "OPTIONS", "HEAD", "TRACE", "PROPFIND")) {
                check(key, () -> Http.call(method, url(concrete(endpoint, own))).send());
            }
            raw(key, endpoint, own);
        }

        for (Endpoint endpoint : ENDPOINTS) {
            String key = endpoint.method() + " " + endpoint.path();
            softly.assertThat(sent.getOrDefault(key, 0)).as("requests sent to " + key).isGreaterThanOrEqualTo(MIN_PER_ENDPOINT);
        }
        softly.assertAll();
        for (int node = 1; node <= 2; node++) {
            int n = node;
            Eventually.within(Duration.ofSeconds(10), "no database connection left in use on node" + n,
                    () -> PoolMetrics.active(n, "primary") == 0 && PoolMetrics.active(n, "replica") == 0);
        }
    }

    /** Requests as bytes: raw UTF-8 and control characters in the URL, broken framing, huge headers. */
    private void raw(String key, Endpoint endpoint, long own) {
        String path = "/api/v1.0" + concrete(endpoint, own);
        List<byte[]> requests = new ArrayList<>();
        requests.add(RawHttp.request(endpoint.method() + " " + path + "?q=경복궁&value=한글 HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + "/경복궁 HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + "?a=b c HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + "?a=%ZZ%G1% HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + "%00 HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + "/..%2f..%2f..%2fetc%2fpasswd HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + "/;x=1 HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + " HTTP/1.1", "X-Long: " + "a".repeat(20_000) + "\r\n", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + " HTTP/1.1", "Authorization: Bearer \u0001\u0002\r\n", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + " HTTP/1.1", "Cookie: token=" + "\u00e9".repeat(10) + "\r\n", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + " HTTP/1.1",
                "Content-Type: application/json\r\nContent-Length: 3000000\r\n", "{\"title\":".getBytes(StandardCharsets.UTF_8)));
        requests.add(RawHttp.request(endpoint.method() + " " + path + " HTTP/1.1",
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n", "zz\r\ngarbage\r\n0\r\n\r\n".getBytes(StandardCharsets.UTF_8)));
        requests.add(RawHttp.request(endpoint.method() + " " + path + " HTTP/1.1",
                "Content-Type: application/json\r\nContent-Length: -1\r\n", new byte[0]));
        requests.add(RawHttp.request("GARBAGE " + path + " HTTP/1.1", "", new byte[0]));
        requests.add(RawHttp.request(endpoint.method() + " " + path + " HTTP/9.9", "", new byte[0]));
        int port = Stack.port("NGINX_PORT");
        for (byte[] request : requests) {
            sent.merge(key, 1, Integer::sum);
            RawHttp.Response r = RawHttp.send(port, request);
            String what = key + " raw " + new String(request, 0, Math.min(request.length, 120), StandardCharsets.UTF_8);
            softly.assertThat(r.status()).as(what).isBetween(100, 499);
            if (r.status() >= 400) {
                softly.assertThat(r.contentType()).as(what).startsWith("application/problem+json");
                assertNoInternals(what, r.body());
                assertMessageRepeatsDetail(what, r.body());
            }
        }
    }

    private void check(String key, Supplier<Http.Response> request) {
        sent.merge(key, 1, Integer::sum);
        Http.Response r;
        try {
            r = request.get();
        } catch (IllegalArgumentException e) {
            // The client refused to send it (e.g. an illegal header value): nothing reached the server.
            return;
        }
        String what = key + " -> " + r.raw().request().method() + " " + abbreviate(r.raw().request().uri().toString());
        softly.assertThat(r.status()).as(what + " " + r).isBetween(100, 499);
        // nginx's own per-address 429 would mean the request never reached the app.
        softly.assertThat(r.body()).as(what + ": refused by nginx, not the app").doesNotContain("\"TOO_MANY_REQUESTS\"");
        if (r.status() >= 400 && !r.raw().request().method().equals("HEAD")) {
            softly.assertThat(r.header("Content-Type")).as(what).startsWith("application/problem+json");
            softly.assertThat(r.body()).as(what).contains("\"code\"");
            assertNoInternals(what, r.body());
            assertMessageRepeatsDetail(what, r.body());
        }
    }

    /** Whichever layer answered (nginx, Tomcat's valve, a filter, the advice): message is detail (architecture §4). */
    private void assertMessageRepeatsDetail(String what, String body) {
        try {
            // Raw responses may still be chunked: the JSON object is between the outer braces.
            var json = Http.JSON.readTree(body.substring(body.indexOf('{'), body.lastIndexOf('}') + 1));
            softly.assertThat(json.path("message").isString()).as(what + " has a message: " + abbreviate(body)).isTrue();
            softly.assertThat(json.path("message").asString()).as(what).isEqualTo(json.path("detail").asString());
        } catch (RuntimeException e) { // no braces, or not JSON between them
            softly.fail(what + ": not a JSON problem body: " + abbreviate(body));
        }
    }

    private void assertNoInternals(String what, String body) {
        softly.assertThat(body).as(what).doesNotContain("Exception", "at dev.hanwiki", "at org.", "jdbc:", "SQL syntax",
                "<html", "Whitelabel", "Apache Tomcat", "nginx/");
    }

    private static String concrete(Endpoint endpoint, long own) {
        return endpoint.path().replace("{id}", Long.toString(own)).replace("{rev}", "1");
    }

    private static String url(String path) {
        return Stack.api() + path;
    }

    private static String pathSegment(String value) {
        return Http.enc(value).replace("+", "%20");
    }

    private static String headerSafe(String value) {
        return value.replaceAll("[\\r\\n\\x00-\\x1f\\x7f]", "").replaceAll("[^\\x20-\\x7e]", "?");
    }

    private static String abbreviate(String text) {
        return text.length() > 160 ? text.substring(0, 160) + "..." : text;
    }
}
