package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.MessageProperties;

class PlainPropertiesTest {

    @Test
    void everyPropertyButTheHeadersInPlainJavaTypes() {
        Instant sent = Instant.parse("2026-12-05T10:15:30Z");
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().contentType("application/json")
                .contentEncoding("gzip").deliveryMode(2).priority(7).correlationId("c-1").replyTo("replies")
                .expiration("60000").messageId("m-1").timestamp(Date.from(sent)).type("order.placed").userId("shop")
                .appId("checkout").headers(Map.of("tenant", "acme")).build();
        assertEquals(new MessageProperties("application/json", "gzip", true, OptionalInt.of(7), "c-1", "replies",
                Optional.of(Duration.ofMinutes(1)), "m-1", Optional.of(sent), "order.placed", "shop", "checkout"),
                PlainProperties.of(properties));
    }

    @Test
    void whatIsNotSetIsNullOrEmptyAndTransient() {
        assertEquals(new MessageProperties(null, null, false, OptionalInt.empty(), null, null, Optional.empty(), null,
                Optional.empty(), null, null, null), PlainProperties.of(new AMQP.BasicProperties()));
        assertEquals(false, PlainProperties.of(new AMQP.BasicProperties.Builder().deliveryMode(1).build()).persistent());
    }

    @Test
    void anExpirationRabbitMqWouldHaveRefusedReadsAsNone() {
        assertEquals(Optional.empty(), PlainProperties.expiration("soon"));
        assertEquals(Optional.empty(), PlainProperties.expiration("-5"));
        assertEquals(Optional.of(Duration.ZERO), PlainProperties.expiration("0"));
    }
}
