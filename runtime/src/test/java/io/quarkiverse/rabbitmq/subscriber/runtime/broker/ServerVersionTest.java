package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.ServerRules;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/** What a broker of a version can do, and what startup refuses on it; no broker. */
class ServerVersionTest {

    @Test
    void versionsAreReadAsTheBrokerTellsThem() {
        assertTrue(ServerVersion.of("4.3.6").delaysQuorumRetries());
        assertFalse(ServerVersion.of("4.3.6").runsDelayedMessagePlugin());
        assertFalse(ServerVersion.of("4.0.5").delaysQuorumRetries());
        assertTrue(ServerVersion.of("4.0.5").runsDelayedMessagePlugin());
        assertFalse(ServerVersion.of("3.10.8").delaysQuorumRetries());
        assertTrue(ServerVersion.of("4.4.0-rc.1").delaysQuorumRetries());
        assertFalse(ServerVersion.of("").known(), "a broker that does not say answers for itself");
        assertTrue(ServerVersion.of("").runsDelayedMessagePlugin());
    }

    @Test
    void startupRefusesThePluginOn43AndTheServersDelayedRetryBeforeIt() {
        SubscriptionSpec plugin = SubscriptionSpec.builder("refunds").delay(Delay.PLUGIN).delayedExchange("delayed")
                .build();
        SubscriptionSpec serverDelay = SubscriptionSpec.builder("payouts").type(QueueType.QUORUM).retryDelay("1s", "")
                .build();
        List<String> on43 = ServerRules.problems(List.of(plugin, serverDelay), ServerVersion.of("4.3.6"));
        assertEquals(1, on43.size());
        assertTrue(on43.get(0).startsWith("Queue 'refunds' sets delay = PLUGIN, which cannot work on RabbitMQ 4.3.6"),
                on43.get(0));
        List<String> on40 = ServerRules.problems(List.of(plugin, serverDelay), ServerVersion.of("4.0.5"));
        assertEquals(1, on40.size());
        assertTrue(on40.get(0).startsWith("Queue 'payouts' sets retryDelay (the server's delayed retry), which "
                + "RabbitMQ 4.0.5 does not have"), on40.get(0));
    }

    @Test
    void startupRefusesAStreamFilterBefore313() {
        SubscriptionSpec filtered = SubscriptionSpec.builder("regions").type(QueueType.STREAM)
                .filter(List.of("eu")).build();
        List<String> on310 = ServerRules.problems(List.of(filtered), ServerVersion.of("3.10.8"));
        assertEquals(List.of("Stream 'regions' sets filter, which RabbitMQ 3.10.8 does not have: stream filters came "
                + "with RabbitMQ 3.13. Upgrade the broker, or remove filter and check the messages in the handler"),
                on310);
        assertEquals(List.of(), ServerRules.problems(List.of(filtered), ServerVersion.of("4.0.5")));
    }

    @Test
    void startupRefusesASuperStreamBefore311() {
        SubscriptionSpec invoices = SubscriptionSpec.builder("invoices").type(QueueType.STREAM)
                .partitions(3, "header:account").build();
        List<String> on310 = ServerRules.problems(List.of(invoices), ServerVersion.of("3.10.8"));
        assertEquals(List.of("Super stream 'invoices' (a stream with partitions = 3) needs RabbitMQ 3.11 or later, "
                + "which has its single active consumer per partition; RabbitMQ 3.10.8 does not. Upgrade the broker, "
                + "or consume one stream (remove partitions)"), on310);
        assertEquals(List.of(), ServerRules.problems(List.of(invoices), ServerVersion.of("3.11.0")));
    }
}
