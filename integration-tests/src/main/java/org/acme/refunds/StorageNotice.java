package org.acme.refunds;

import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

/** Says at startup where the refunds are recorded: one line, loud when they live only in memory. */
@jakarta.inject.Singleton
public class StorageNotice {

    private static final Logger LOG = Logger.getLogger(StorageNotice.class);

    void onStart(@Observes StartupEvent event, @ConfigProperty(name = "quarkus.datasource.db-kind") String kind,
            @ConfigProperty(name = "quarkus.datasource.jdbc.url") String url) {
        if ("h2".equals(kind)) {
            LOG.warnf("Refunds, the inbox and the outbox are kept in an embedded H2 database in memory (%s): they are "
                    + "gone when the application stops. Start PostgreSQL on localhost:5432 (database test, user "
                    + "postgres) to keep them", url);
        } else {
            LOG.infof("Refunds, the inbox and the outbox are recorded in %s (%s)", kind, url);
        }
    }
}
