package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class BrokerNamesTest {

    @Test
    void namesAreReadQuotedOrNotAndInAnyProfile() {
        assertEquals(List.of("billing", "eu.west", "payments"), List.copyOf(BrokerNames.configured(List.of(
                "quarkus.rabbitmq-subscriber.brokers.billing.url",
                "quarkus.rabbitmq-subscriber.brokers.billing.heartbeat",
                "quarkus.rabbitmq-subscriber.brokers.\"eu.west\".addresses",
                "%prod.quarkus.rabbitmq-subscriber.brokers.payments.url",
                "quarkus.rabbitmq-subscriber.url",
                "quarkus.rabbitmq-subscriber.brokers",
                "quarkus.rabbitmq-subscriber.brokers.\"unclosed.url",
                "quarkus.rabbitmq-subscriber.queues.brokers.x.url"))));
    }

    @Test
    void anUnknownNameIsReportedWithTheConfiguredOnes() {
        assertEquals("no named broker is configured", BrokerNames.listed(new java.util.TreeSet<>()));
        assertEquals("the configured ones are [billing]", BrokerNames.listed(new java.util.TreeSet<>(List.of("billing"))));
    }
}
