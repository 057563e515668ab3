package dev.hanwiki.auth;

import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Password hashing (ADR 0010): Argon2id with Spring Security's current parameters, behind a
 * delegating encoder so stored hashes name their algorithm and can be upgraded later.
 * Health: {@code tokenBlacklist} reports the auth Redis; it is not part of readiness, because
 * anonymous reads keep working without it.
 */
@Configuration(proxyBeanMethods = false)
class AuthConfiguration {

    static final String PASSWORD_ENCODING = "argon2@SpringSecurity_v5_8";

    @Bean
    PasswordEncoder passwordEncoder() {
        return new DelegatingPasswordEncoder(PASSWORD_ENCODING,
                Map.of(PASSWORD_ENCODING, Argon2PasswordEncoder.defaultsForSpringSecurity_v5_8()));
    }

    @Bean
    HealthIndicator tokenBlacklistHealthIndicator(TokenBlacklist blacklist) {
        return () -> blacklist.ping() ? Health.up().build() : Health.down().withDetail("failsClosed", true).build();
    }
}
