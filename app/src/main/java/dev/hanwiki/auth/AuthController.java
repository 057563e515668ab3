package dev.hanwiki.auth;

import dev.hanwiki.platform.ApiResponse;
import dev.hanwiki.platform.ClientAddresses;
import dev.hanwiki.platform.CurrentUser;
import dev.hanwiki.platform.TokenTransport;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseCookie;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /auth}: sign-up and login answer the user and set the {@code token} cookie (HttpOnly,
 * SameSite=Lax, Path=/, Max-Age = the token's lifetime). Clients without cookies read the same
 * token from the {@code Set-Cookie} header and send it as {@code Authorization: Bearer}.
 */
@RestController
@RequestMapping("/api/v1.0/auth")
class AuthController {

    private final AccountService accounts;
    private final CurrentUser currentUser;
    private final AuthSettings settings;

    private final ClientAddresses addresses;

    AuthController(AccountService accounts, CurrentUser currentUser, AuthSettings settings, ClientAddresses addresses) {
        this.accounts = accounts;
        this.currentUser = currentUser;
        this.settings = settings;
        this.addresses = addresses;
    }

    @PostMapping("/signup")
    @ResponseStatus(HttpStatus.CREATED)
    ApiResponse<UserView> signup(@RequestBody SignupRequest request, HttpServletResponse response) {
        AccountService.Session session = accounts.signup(request);
        setTokenCookie(response, session.token().value(), settings.tokenLifetime());
        return ApiResponse.created(session.user());
    }

    @PostMapping("/login")
    ApiResponse<UserView> login(@Valid @RequestBody LoginRequest request, HttpServletRequest http,
            HttpServletResponse response) {
        AccountService.Session session = accounts.login(request, addresses.client(http));
        setTokenCookie(response, session.token().value(), settings.tokenLifetime());
        return ApiResponse.ok(session.user());
    }

    @PostMapping("/logout")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void logout(HttpServletResponse response) {
        accounts.logout(currentUser.require());
        setTokenCookie(response, "", Duration.ZERO);
    }

    /** Logs the account out on every device: every token issued until now is revoked. */
    @PostMapping("/logout-all")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void logoutEverywhere(HttpServletResponse response) {
        accounts.logoutEverywhere(currentUser.require(), settings.tokenLifetime());
        setTokenCookie(response, "", Duration.ZERO);
    }

    @GetMapping("/me")
    ApiResponse<UserView> me() {
        return ApiResponse.ok(accounts.me(currentUser.require()));
    }

    @GetMapping("/check-username")
    ApiResponse<Availability> checkUsername(@RequestParam String value) {
        return ApiResponse.ok(accounts.usernameAvailability(value));
    }

    @GetMapping("/check-nickname")
    ApiResponse<Availability> checkNickname(@RequestParam String value) {
        return ApiResponse.ok(accounts.nicknameAvailability(value));
    }

    /**
     * Added to the servlet response rather than returned as a header of the body: other
     * cookies of the same response (the read-your-writes position) must survive beside it.
     */
    private void setTokenCookie(HttpServletResponse response, String value, Duration maxAge) {
        response.addHeader(HttpHeaders.SET_COOKIE, ResponseCookie.from(TokenTransport.COOKIE, value)
                .httpOnly(true)
                .secure(settings.cookieSecure())
                .sameSite("Lax")
                .path("/")
                .maxAge(maxAge)
                .build()
                .toString());
    }
}
