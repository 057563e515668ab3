package dev.hanwiki.it;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Signed-up test users. Sign-ups go to node 1 directly, not through nginx: nginx limits
 * sign-up and login per client address, and the rate-limit test drains that budget on purpose,
 * so going around it keeps the other tests independent of test order. The token a user gets
 * works on both nodes and through nginx alike.
 */
final class Users {

    static final String PASSWORD = "Hanwiki-test-1";
    /**
     * The shared user is replaced well before its token expires (the app's token lifetime is
     * 30 min; a suite on a large corpus runs longer than that, and a long drill's background
     * writer asks for the shared user on every write).
     */
    private static final Duration SHARED_FOR = Duration.ofMinutes(15);
    private static volatile User shared;
    private static volatile long sharedSince;

    private Users() {
    }

    /** A signed-in user; {@code sync} is the read-your-writes position of its last write. */
    static final class User {
        final long id;
        final String username;
        final String nickname;
        final String token;
        private volatile String sync;

        User(long id, String username, String nickname, String token) {
            this.id = id;
            this.username = username;
            this.nickname = nickname;
            this.token = token;
        }

        /** A request carrying this user's token and, if it wrote before, its write position. */
        Http.Call call(String method, String url) {
            Http.Call call = Http.call(method, url).header("Authorization", "Bearer " + token);
            String position = sync;
            return position == null ? call : call.header("X-Hanwiki-Sync", position);
        }

        Http.Response send(Http.Call call) {
            Http.Response r = call.send();
            String position = r.header("X-Hanwiki-Sync");
            if (!position.isEmpty()) {
                sync = position;
            }
            return r;
        }

        Http.Response get(String url) {
            return send(call("GET", url));
        }

        Http.Response post(String url, Object body) {
            return send(call("POST", url).json(body));
        }

        Http.Response put(String url, Object body) {
            return send(call("PUT", url).json(body));
        }

        Http.Response delete(String url) {
            return send(call("DELETE", url));
        }

        /**
         * The same user with a new token (a login at node 1, like sign-ups): for a drill that
         * outlives the token lifetime (30 min), e.g. a restore on a large corpus.
         */
        User signedInAgain() {
            Http.Response r = Http.post(Stack.node(1) + "/api/v1.0/auth/login", Map.of("username", username, "password", PASSWORD));
            String fresh = r.cookie("token");
            if (r.status() != 200 || fresh == null || fresh.isEmpty()) {
                throw new AssertionError("login failed: " + r);
            }
            return new User(id, username, nickname, fresh);
        }

        /** Creates a post and returns its id, failing the test otherwise. */
        long createPost(String title, String content) {
            return createPost(Map.of("title", title, "content", content));
        }

        long createPost(Map<String, Object> body) {
            Http.Response r = post(Stack.api() + "/posts", body);
            if (r.status() != 201) {
                throw new AssertionError("create failed: " + r);
            }
            return r.data().path("id").asLong();
        }
    }

    /** One user shared by tests that only need someone to write as. */
    static User shared() {
        User user = shared;
        if (user == null || System.nanoTime() - sharedSince > SHARED_FOR.toNanos()) {
            synchronized (Users.class) {
                if (shared == null || System.nanoTime() - sharedSince > SHARED_FOR.toNanos()) {
                    shared = signUp();
                    sharedSince = System.nanoTime();
                }
                user = shared;
            }
        }
        return user;
    }

    static User signUp() {
        String username = "it" + random(12);
        String nickname = "it" + random(8);
        Http.Response r = Http.post(Stack.node(1) + "/api/v1.0/auth/signup",
                Map.of("username", username, "nickname", nickname, "password", PASSWORD));
        if (r.status() != 201) {
            throw new AssertionError("sign-up failed: " + r);
        }
        String token = r.cookie("token");
        if (token == null || token.isEmpty()) {
            throw new AssertionError("sign-up set no token cookie: " + r.headers("Set-Cookie"));
        }
        return new User(r.data().path("id").asLong(), username, nickname, token);
    }

    static String random(int length) {
        StringBuilder sb = new StringBuilder();
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.toString().toLowerCase(Locale.ROOT);
    }
}
