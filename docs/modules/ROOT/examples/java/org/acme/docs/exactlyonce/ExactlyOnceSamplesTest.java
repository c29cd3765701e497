package org.acme.docs.exactlyonce;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Proxy;

import javax.sql.DataSource;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The Exactly-once page's samples need what this module does not have: a JDBC datasource (quarkus-agroal and a
 * driver) and JTA (quarkus-narayana-jta). What runs here is the page's "What the build checks": built without them,
 * the inbox subscription and the outbox fail the build, naming the method and what to add.
 */
class ExactlyOnceSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, Order.class, Placed.class, Refunds.class,
                    Refund.class, RefundIssued.class, ShopDatabase.class, NoDatabase.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.outbox.enabled", "true")
            .assertException(failure -> {
                String text = render(failure);
                for (String expected : new String[] { "org.acme.docs.exactlyonce.Orders#place(",
                        "has inbox = true, and quarkus.rabbitmq-subscriber.outbox.enabled is true: the inbox is a "
                                + "table in the application's database, and the application has no JDBC datasource. "
                                + "Add quarkus-agroal and a JDBC driver" }) {
                    assertTrue(text.contains(expected), () -> "Expected the failure to mention \"" + expected
                            + "\", but it said:\n" + text);
                }
            });

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    /**
     * Stands in for the datasource quarkus-agroal would provide, so that the build gets past the samples' own injection
     * point to the extension's checks. Never called: the build fails first.
     */
    @Singleton
    static class NoDatabase {

        @Produces
        DataSource dataSource() {
            return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                    new Class<?>[] { DataSource.class }, (proxy, method, arguments) -> {
                        throw new UnsupportedOperationException("no database in this test");
                    });
        }
    }

    private static String render(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('\n');
            for (Throwable suppressed : t.getSuppressed()) {
                text.append(render(suppressed));
            }
        }
        return text.toString();
    }
}
