package org.acme.subscriber.test.brokers;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import java.util.List;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * One application on two virtual hosts of one RabbitMQ: the default broker on {@code /}, the broker named
 * {@code billing} on a virtual host of its own. Each has its own connections and queues; no message crosses from one
 * to the other; a cut of the billing broker's connection is its own readiness entry, and its subscribers consume
 * again after it.
 */
@Tag("wire")
class NamedBrokersOnVirtualHostsTest extends BrokerScenarios {

    static final String VHOST = "nb-billing-" + ProcessHandle.current().pid();
    static final String CONNECTION = "nb-vhosts-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(BillingHandlers.ORDERS, BillingHandlers.AUDIT).givesUrl()
            .before(admin -> {
                deleteVirtualHost();
                RabbitAdmin.rabbitmqctl("add_vhost", VHOST);
                RabbitAdmin.rabbitmqctl("set_permissions", "-p", VHOST, "guest", ".*", ".*", ".*");
            });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(BillingHandlers.class))
            .setAfterAllCustomizer(NamedBrokersOnVirtualHostsTest::deleteVirtualHost)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.billing.url", WireBroker.URL + "/" + VHOST)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.billing.recovery.initial-delay", "2s")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.billing.recovery.jitter", "0");

    @Override
    void settle() {
    }

    @Test
    void aCutOfOneBrokersConnectionIsThatBrokersOwn() throws Exception {
        List<String> billingConnections = RabbitAdmin.connectionsNamed(CONNECTION + "-billing");
        String line = billingConnections.get(0);
        RabbitAdmin.rabbitmqctl("close_connection", line.substring(0, line.indexOf('\t')), "closed by test");
        await().atMost(WAIT).untilAsserted(() -> given().get("/q/health/ready").then().statusCode(503)
                .body(containsString("connection (broker 'billing')")));
        await().atMost(WAIT).untilAsserted(() -> given().get("/q/health/ready").then().statusCode(200));
        billing.sendConfirmed(OutgoingMessage.toQueue(BillingHandlers.INVOICES).payload("after the cut")).await()
                .atMost(WAIT);
        await().atMost(WAIT).until(() -> handlers.invoices.contains("after the cut"));
        // The default broker's subscribers never lost theirs.
        orders.sendConfirmed(OutgoingMessage.toQueue(BillingHandlers.ORDERS).payload("o-after")).await().atMost(WAIT);
        await().atMost(WAIT).until(() -> handlers.audit.contains("o-after")
                && handlers.invoices.contains("invoice for o-after"));
    }

    static void deleteVirtualHost() {
        try {
            if (RabbitAdmin.rabbitmqctl("list_vhosts", "name").lines().anyMatch(VHOST::equals)) {
                RabbitAdmin.rabbitmqctl("delete_vhost", VHOST);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
