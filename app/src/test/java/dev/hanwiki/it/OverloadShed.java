package dev.hanwiki.it;

/** A node's answer when it shed the request past its concurrency limit (ADR 0093). */
final class OverloadShed {

    private OverloadShed() {
    }

    static boolean is(Http.Response r) {
        return r.status() == 503 && r.body().contains("\"code\":\"OVERLOADED\"") && !r.header("Retry-After").isEmpty();
    }
}
