package dev.hanwiki.platform;

import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI description served at {@code /v3/api-docs} (springdoc); {@code docs/openapi.json}
 * is a copy ({@code make openapi}) that an integration test keeps equal to what the app serves.
 * The server URL is relative so the document is the same whichever node or proxy serves it.
 * Every operation also lists its error answer: a {@code Problem} (the advice's and filters'
 * bodies are written outside the controllers, so springdoc cannot infer them).
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    private static final String PROBLEM = "Problem";

    @Bean
    OpenAPI hanwikiOpenApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Hanwiki API")
                        .version("1.0")
                        .description("""
                                Korean-first wiki and search. Success bodies are {"status", "data"}; errors are \
                                application/problem+json (RFC 9457) with status, title, detail (also as message) and a \
                                stable code. /api/v1/... is an alias of /api/v1.0/...: every call answers the same there. \
                                Writes, /auth/me and /auth/logout need a token: the HttpOnly "token" cookie set by \
                                sign-up and login, or the same value as "Authorization: Bearer". Edits name the \
                                version they started from ("version" or If-Match); who may edit (401/403) is decided \
                                before that (428/409). Writes return X-Hanwiki-Sync \
                                (also the hw_sync cookie); sending it back makes later reads show that write. \
                                Search: when the keyboard-layout rescue replaced the query (dkssud typed for 안녕), \
                                rewrittenFrom is the query as typed and the results are those of suggestion; when \
                                rewrittenFrom is null, suggestion is only a did-you-mean; exact=true searches the \
                                text as typed (no rescue)."""))
                .servers(List.of(new Server().url("/").description("this service (any node, or nginx)")))
                .components(new Components()
                        .addSecuritySchemes("bearer", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .bearerFormat("JWT"))
                        .addSecuritySchemes("cookie", new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                                .in(SecurityScheme.In.COOKIE).name(TokenTransport.COOKIE)));
    }

    /** Fields marked {@code @Nullable} may be null in the description too ({@link NullableFields}). */
    @Bean
    ModelConverter nullableFields() {
        return new NullableFields();
    }

    /**
     * Adds the {@code Problem} schema (here: springdoc replaces the schemas of the bean above with
     * those it derives) and makes it every operation's {@code default} response.
     */
    @Bean
    OpenApiCustomizer problemResponses() {
        return api -> {
            api.getComponents().addSchemas(PROBLEM, problemSchema());
            api.getPaths().values().forEach(path -> path.readOperations().forEach(operation ->
                    operation.getResponses().addApiResponse("default", new ApiResponse()
                            .description("An error: 4xx for the request, 5xx for the service (never with internals)")
                            .content(new Content().addMediaType(ProblemBodies.MEDIA_TYPE,
                                    new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM)))))));
        };
    }

    private static Schema<?> problemSchema() {
        return new ObjectSchema()
                .description("RFC 9457 problem details, as every layer writes them (app, security, servlet container, nginx)")
                .addProperty("title", new StringSchema().description("the status's reason phrase"))
                .addProperty("status", new IntegerSchema().description("the HTTP status"))
                .addProperty("detail", new StringSchema().description("what went wrong, safe to show"))
                .addProperty("message", new StringSchema().description("the same text as detail, for older clients"))
                .addProperty("instance", new StringSchema().description("the request path, when known"))
                .addProperty("code", new StringSchema().description("stable machine code, e.g. POST_NOT_FOUND, INVALID_INPUT"))
                .required(List.of("title", "status", "detail", "message", "code"));
    }
}
