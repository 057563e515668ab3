package dev.hanwiki.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A tiny JSON-over-HTTP client for the integration tests (java.net.http + Jackson). */
final class Http {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();
    private static final Map<String, HttpClient> FROM = new java.util.concurrent.ConcurrentHashMap<>();

    record Response(int status, String body, HttpResponse<String> raw) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        JsonNode data() {
            return json().path("data");
        }

        String header(String name) {
            return raw.headers().firstValue(name).orElse("");
        }

        List<String> headers(String name) {
            return raw.headers().allValues(name);
        }

        /** The value of cookie {@code name} set by this response, or null. */
        String cookie(String name) {
            for (String set : headers("Set-Cookie")) {
                String pair = set.split(";", 2)[0];
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).strip().equals(name)) {
                    return pair.substring(eq + 1);
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return status + " " + (body.length() > 500 ? body.substring(0, 500) + "..." : body);
        }
    }

    /** One request under construction: method, URL, headers and an optional body. */
    static final class Call {
        private final String method;
        private String url;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.noBody();
        private HttpClient client = CLIENT;

        private Call(String method, String url) {
            this.method = method;
            this.url = url;
        }

        Call header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        /**
         * Sends from another local address (e.g. 127.0.0.2): to nginx that is another client
         * address, one that is not on the trusted load-generator list.
         */
        Call from(String localAddress) {
            // In the host topology the public entry on localhost relays every client as the
            // machine's one address: a distinct client goes to nginx directly, from the
            // machine's client range (Stack.clientAddress).
            url = Stack.direct(url);
            client = FROM.computeIfAbsent(Stack.clientAddress(localAddress), a -> {
                try {
                    return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
                            .version(HttpClient.Version.HTTP_1_1).localAddress(java.net.InetAddress.getByName(a)).build();
                } catch (java.net.UnknownHostException e) {
                    throw new IllegalArgumentException(a, e);
                }
            });
            return this;
        }

        Call json(Object value) {
            return raw(value instanceof String text ? text : JSON.writeValueAsString(value), "application/json");
        }

        Call raw(String text, String contentType) {
            body = HttpRequest.BodyPublishers.ofString(text);
            if (contentType != null) {
                headers.put("Content-Type", contentType);
            }
            return this;
        }

        Response send() {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).method(method, body).timeout(Duration.ofSeconds(15));
            headers.forEach(b::header);
            try {
                HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                return new Response(r.statusCode(), r.body(), r);
            } catch (IOException e) {
                throw new UncheckedIOException(method + " " + url, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private Http() {
    }

    static Call call(String method, String url) {
        return new Call(method, url);
    }

    static Response get(String url) {
        return call("GET", url).send();
    }

    static Response post(String url, Object body) {
        return call("POST", url).json(body).send();
    }

    static Response put(String url, Object body) {
        return call("PUT", url).json(body).send();
    }

    static Response delete(String url) {
        return call("DELETE", url).send();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
