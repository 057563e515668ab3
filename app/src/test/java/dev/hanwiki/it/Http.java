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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A tiny JSON-over-HTTP client for the integration tests (java.net.http + Jackson). */
final class Http {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();

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

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private Http() {
    }

    static Response get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET());
    }

    static Response post(String url, Object body) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    static Response put(String url, Object body) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    static Response delete(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).DELETE());
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static Response send(HttpRequest.Builder b) {
        try {
            HttpResponse<String> r = CLIENT.send(b.timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
