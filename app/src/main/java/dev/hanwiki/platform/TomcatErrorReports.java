package dev.hanwiki.platform;

import org.apache.catalina.Container;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Makes {@link ProblemErrorReportValve} the host's only error report valve. Boot adds a plain
 * {@link ErrorReportValve} (HTML, no server info) from its own customizer; this one runs after
 * it, removes that valve and tells the host to install ours instead.
 */
@Component
class TomcatErrorReports implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Container host = context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
                    host.getPipeline().removeValve(valve);
                }
            }
            if (host instanceof StandardHost standardHost) {
                standardHost.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
