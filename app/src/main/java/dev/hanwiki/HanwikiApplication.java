package dev.hanwiki;

import dev.hanwiki.platform.SecurityConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/**
 * The security policy is imported here rather than only found by scanning, so that every
 * slice test ({@code @WebMvcTest}) runs under the same policy as production instead of
 * Boot's default one.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import(SecurityConfiguration.class)
public class HanwikiApplication {

    public static void main(String[] args) {
        SpringApplication.run(HanwikiApplication.class, args);
    }
}
