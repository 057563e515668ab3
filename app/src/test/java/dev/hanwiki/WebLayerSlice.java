package dev.hanwiki;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * What every web-slice test ({@code @WebMvcTest}) shares: a private index directory, databases
 * and a token blacklist that refuse connections ({@link UnreachableInfrastructure}), a context of
 * its own that is closed after the class (it owns an index writer), and the {@link MockMvc} to
 * call it with. A subclass adds its {@code @WebMvcTest} with the beans it needs.
 */
@DirtiesContext
public abstract class WebLayerSlice {

    @TempDir
    static Path indexDir;

    @Autowired
    protected MockMvc mvc;

    @DynamicPropertySource
    static void unreachableInfrastructure(DynamicPropertyRegistry registry) {
        UnreachableInfrastructure.register(registry, indexDir);
    }
}
