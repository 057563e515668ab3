package dev.hanwiki.platform;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * The HTTP security policy, in one place. Stateless: no session, no form login, no HTTP basic;
 * a request is authenticated only by the token it carries ({@link TokenAuthenticationFilter}).
 * Secure by default: every non-read call needs a user, except signing up and logging in; reads
 * are public except {@code /auth/me}. Every refusal is a problem+json body.
 * <p>
 * Spring's CSRF tokens are off on purpose (ADR 0011): the cookie is {@code SameSite=Lax}, so
 * browsers do not send it on cross-site writes, and {@link CrossSiteWriteGuard} refuses every
 * cookie-authenticated state change that is not JSON or marked {@code X-Requested-With}
 * (bodiless likes and logouts included), which a cross-site form cannot produce without a CORS
 * preflight that this service never grants (ADR 0088).
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    private static final String API = "/api/v1.0";

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, ObjectProvider<TokenAuthenticator> authenticator,
            ClientAddresses addresses) throws Exception {
        AuthorizationManager<RequestAuthorizationContext> operatorsOnly = (authentication, context) ->
                new AuthorizationDecision(addresses.fromOperator(context.getRequest()));
        http.csrf(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .addFilterBefore(new OperatorAddressFilter(addresses), AnonymousAuthenticationFilter.class)
                .addFilterBefore(new CrossSiteWriteGuard(), AnonymousAuthenticationFilter.class)
                .addFilterBefore(new TokenAuthenticationFilter(authenticator), AnonymousAuthenticationFilter.class)
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> refuseAnonymous(request, response))
                        .accessDeniedHandler((request, response, e) -> write(response, 403, ProblemCodes.FORBIDDEN,
                                "You may not do this.", request.getRequestURI())))
                .authorizeHttpRequests(requests -> requests
                        // Error pages are rendered for requests that were already judged.
                        .dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.FORWARD).permitAll()
                        .requestMatchers(HttpMethod.POST, API + "/auth/signup", API + "/auth/login").permitAll()
                        .requestMatchers(API + "/auth/me", API + "/auth/logout", API + "/auth/logout-all").authenticated()
                        // Operator calls (nginx refuses /internal; the actuator is on the management port):
                        // only from the node's host, the monitoring host and the operators' network
                        // (OperatorAddressFilter refuses everyone else first). They include the
                        // autocomplete rebuild and removing a popular-query entry (ADR 0089).
                        .requestMatchers("/internal/**", "/actuator/**").access(operatorsOnly)
                        .requestMatchers(HttpMethod.GET, "/**").permitAll()
                        .requestMatchers(HttpMethod.HEAD, "/**").permitAll()
                        .requestMatchers(HttpMethod.OPTIONS, "/**").permitAll()
                        .anyRequest().authenticated());
        return http.build();
    }

    /** URLs the firewall refuses (encoded slashes, "..", ";", control characters...) are bad input. */
    @Bean
    RequestRejectedHandler requestRejectedHandler() {
        return (request, response, e) -> write(response, 400, ProblemCodes.INVALID_INPUT,
                "The request URL or its headers contain characters or sequences that are not allowed.", null);
    }

    /** 401 with the reason the token was refused, or 503 if the blacklist could not be checked. */
    private static void refuseAnonymous(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object refusal = request.getAttribute(TokenAuthenticationFilter.REFUSAL);
        String instance = request.getRequestURI();
        switch (refusal) {
            case TokenCheck.Unavailable unavailable -> {
                response.setHeader("Retry-After", "5");
                write(response, 503, ProblemCodes.AUTH_UNAVAILABLE, unavailable.detail(), instance);
            }
            case TokenCheck.Rejected rejected -> {
                response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
                write(response, 401, rejected.code(), rejected.detail(), instance);
            }
            case null, default -> {
                response.setHeader("WWW-Authenticate", "Bearer");
                write(response, 401, ProblemCodes.AUTHENTICATION_REQUIRED, "Sign in to do this.", instance);
            }
        }
    }

    private static void write(HttpServletResponse response, int status, String code, String detail, String instance)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.setStatus(status);
        response.setContentType(ProblemBodies.MEDIA_TYPE);
        response.getOutputStream().write(ProblemBodies.json(status, code, detail, instance));
    }
}
