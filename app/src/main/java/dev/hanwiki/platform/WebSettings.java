package dev.hanwiki.platform;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * HTTP-level limits. The default body cap (8 MB) admits the largest valid post: 1 MiB
 * characters of content, even if every character is JSON-escaped, plus the title.
 */
@Validated
@ConfigurationProperties("hanwiki.web")
record WebSettings(@NotNull @DefaultValue("8MB") DataSize maxRequestBody) {
}
