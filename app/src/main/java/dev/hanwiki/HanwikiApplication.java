package dev.hanwiki;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class HanwikiApplication {

    public static void main(String[] args) {
        SpringApplication.run(HanwikiApplication.class, args);
    }
}
