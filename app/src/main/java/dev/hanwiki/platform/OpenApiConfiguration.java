package dev.hanwiki.platform;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI description served at {@code /v3/api-docs} (springdoc); {@code docs/openapi.json}
 * is a copy ({@code make openapi}) that an integration test keeps equal to what the app serves.
 * The server URL is relative so the document is the same whichever node or proxy serves it.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    @Bean
    OpenAPI hanwikiOpenApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Hanwiki API")
                        .version("1.0")
                        .description("""
                                Korean-first wiki and search. Success bodies are {"status", "data"}; errors are \
                                application/problem+json (RFC 9457) with status, title, detail and a stable code. \
                                Writes, /auth/me and /auth/logout need a token: the HttpOnly "token" cookie set by \
                                sign-up and login, or the same value as "Authorization: Bearer". Edits name the \
                                version they started from ("version" or If-Match). Writes return X-Hanwiki-Sync \
                                (also the hw_sync cookie); sending it back makes later reads show that write."""))
                .servers(List.of(new Server().url("/").description("this service (any node, or nginx)")))
                .components(new Components()
                        .addSecuritySchemes("bearer", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .bearerFormat("JWT"))
                        .addSecuritySchemes("cookie", new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                                .in(SecurityScheme.In.COOKIE).name(TokenTransport.COOKIE)));
    }
}
