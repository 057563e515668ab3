package dev.hanwiki.platform;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Identity of this app node ({@code hanwiki.node.id}). It tags every metric and names the
 * node in internal endpoints, so it must be a short, label-safe token.
 */
@Validated
@ConfigurationProperties("hanwiki.node")
public record NodeSettings(@NotBlank @Pattern(regexp = "[A-Za-z0-9_.-]{1,64}") String id) {
}
