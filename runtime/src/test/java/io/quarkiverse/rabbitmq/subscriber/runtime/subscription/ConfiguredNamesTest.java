package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.ExchangeType;

/** Names from the configuration: expressions, defaults, missing properties, and the rules run again once resolved. */
class ConfiguredNamesTest {

    static final Map<String, String> CONFIG = Map.of("region", "eu", "queue", "orders");
    static final Function<String, Optional<String>> PROPERTY = key -> Optional.ofNullable(CONFIG.get(key));

    static SubscriberDefinition definition(String method, SubscriptionSpec spec) {
        return new SubscriberDefinition(spec, method, SubscriberDefinition.PayloadKind.STRING, "java.lang.String", 1,
                0, -1, -1, SubscriberDefinition.ReturnKind.VOID, SubscriberDefinition.ExecutionModel.WORKER, null);
    }

    @Test
    void expressionsDefaultsAndTextAround() {
        assertEquals("orders", ConfiguredNames.resolve("orders", PROPERTY));
        assertEquals("orders.eu", ConfiguredNames.resolve("orders.${region}", PROPERTY));
        assertEquals("eu.orders.x", ConfiguredNames.resolve("${region}.${queue}.${missing:x}", PROPERTY));
        assertEquals("", ConfiguredNames.resolve("${missing:}", PROPERTY));
        assertEquals("a:b", ConfiguredNames.resolve("${missing:a:b}", PROPERTY));
    }

    @Test
    void aMissingPropertyWithoutDefaultIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConfiguredNames.resolve("orders.${zone}", PROPERTY));
        assertEquals("names 'orders.${zone}', but the configuration has no property 'zone' and the expression gives "
                + "no default (${zone:<default>})", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ConfiguredNames.resolve("${queue", PROPERTY));
        assertThrows(IllegalArgumentException.class, () -> ConfiguredNames.resolve("${}", PROPERTY));
    }

    @Test
    void everyNameIsResolvedAndDeadLetterReadersMarkedAgain() {
        List<SubscriberDefinition> resolved = ConfiguredNames.resolve(List.of(
                definition("A#work", SubscriptionSpec.builder("${queue}").maxAttempts(3).deadLetter("${queue}.dead")
                        .binding("shop.${region}", ExchangeType.TOPIC, List.of("order.${region}.*"), List.of())
                        .build()),
                definition("A#dead", SubscriptionSpec.builder("${dead:orders.dead}").build())), PROPERTY);
        SubscriptionSpec work = resolved.get(0).subscription;
        assertEquals("orders", work.queue);
        assertEquals("orders.dead", work.deadLetter);
        assertEquals("shop.eu", work.bindings.get(0).exchange);
        assertEquals(List.of("order.eu.*"), work.bindings.get(0).keys);
        assertTrue(resolved.get(1).subscription.readsDeadLetters, "orders.dead is the dead-letter queue of orders");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ConfiguredNames.resolve(List.of(
                definition("A#one", SubscriptionSpec.builder("${queue}").build()),
                definition("A#two", SubscriptionSpec.builder("${other:orders}").build()),
                definition("A#three", SubscriptionSpec.builder("${nowhere}").build())), PROPERTY));
        assertTrue(e.getMessage().contains("@Subscriber method A#three names '${nowhere}'"), e.getMessage());
        assertTrue(e.getMessage().contains("Queue 'orders' has 2 @Subscriber methods (A#one, A#two)"),
                e.getMessage());
    }
}
