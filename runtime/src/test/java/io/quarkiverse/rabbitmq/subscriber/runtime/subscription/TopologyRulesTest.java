package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.QueueType;

/** The binding and queue-argument rules as a table: a subscription as declared, and every problem it has. */
class TopologyRulesTest {

    static SubscriptionDeclaration orders() {
        return SubscriptionSpec.builder("orders");
    }

    static SubscriptionDeclaration bound(ExchangeType type, List<String> keys, String... arguments) {
        return orders().binding("shop", type, keys, List.of(arguments));
    }

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("a topic binding", bound(ExchangeType.TOPIC, List.of("order.*")), List.of()),
                Arguments.of("a fanout binding", bound(ExchangeType.FANOUT, List.of()), List.of()),
                Arguments.of("a headers binding", bound(ExchangeType.HEADERS, List.of(), "x-match=any", "a=1"),
                        List.of()),
                Arguments.of("keys on fanout", bound(ExchangeType.FANOUT, List.of("a")),
                        List.of("binds to FANOUT exchange 'shop' with keys [a]: a FANOUT exchange routes without "
                                + "binding keys, so they would change nothing; remove them")),
                Arguments.of("keys on headers", bound(ExchangeType.HEADERS, List.of("a"), "x-match=all"),
                        List.of("binds to HEADERS exchange 'shop' with keys [a]: a HEADERS exchange routes without "
                                + "binding keys, so they would change nothing; remove them and match on headers in "
                                + "arguments")),
                Arguments.of("an empty topic key", bound(ExchangeType.TOPIC, List.of("")),
                        List.of("binds to TOPIC exchange 'shop' with an empty key: it would match only messages "
                                + "published with an empty routing key; use \"#\" for every message")),
                Arguments.of("x-match on a topic binding", bound(ExchangeType.TOPIC, List.of(), "x-match=all"),
                        List.of("binds to TOPIC exchange 'shop' with x-match: only a HEADERS exchange matches on "
                                + "headers")),
                Arguments.of("the default exchange", orders().binding("", ExchangeType.DIRECT, List.of(), List.of()),
                        List.of("binds to the default exchange \"\": every queue is bound to it by its own name "
                                + "already, and RabbitMQ refuses other bindings; name an exchange, or remove the "
                                + "@Binding")),
                Arguments.of("amq.fanout as fanout", orders().binding("amq.fanout", ExchangeType.FANOUT, List.of(),
                        List.of()), List.of()),
                Arguments.of("x-max-length", orders().arguments(List.of("x-max-length=10")), List.of()),
                Arguments.of("x-expires of 0", orders().arguments(List.of("x-expires=0")),
                        List.of("declares queue argument x-expires=0: it must be a whole number of 1 or more "
                                + "(milliseconds unused before RabbitMQ deletes the queue)")),
                Arguments.of("reject-publish-dlx on quorum", orders().type(QueueType.QUORUM)
                        .arguments(List.of("x-overflow=reject-publish-dlx")),
                        List.of("declares queue argument x-overflow=reject-publish-dlx: quorum queues support "
                                + "drop-head and reject-publish only")),
                Arguments.of("reject-publish under a quorum cap", orders().type(QueueType.QUORUM).maxAttempts(3)
                        .deadLetter("orders.dead").arguments(List.of("x-overflow=reject-publish")), List.of()),
                Arguments.of("a dead-letter route of their own on a classic queue under a cap", orders().maxAttempts(3)
                        .deadLetter("orders.dead").arguments(List.of("x-dead-letter-exchange=dlx")), List.of()),
                Arguments.of("a leader locator that is a number", orders().type(QueueType.QUORUM)
                        .arguments(List.of("x-queue-leader-locator=1")),
                        List.of("declares queue argument x-queue-leader-locator=1: it must be a strategy name "
                                + "(client-local or balanced)")),
                Arguments.of("an unknown argument passes as written", orders().arguments(List.of("x-custom=1")),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void problems(String name, SubscriptionDeclaration declared, List<String> expected) {
        assertEquals(expected, SubscriptionRules.problems(declared, true, false));
    }

    @Test
    void argumentsAreTypedAndALaterOneOfTheSameNameWins() {
        SubscriptionSpec spec = orders().arguments(List.of("x-max-length=10", "x-single-active-consumer=true",
                "x-queue-leader-locator=balanced", "x-max-length=20")).build();
        assertEquals(Map.of("x-max-length", 20L, "x-single-active-consumer", true, "x-queue-leader-locator",
                "balanced"), spec.arguments);
        assertEquals(spec.arguments, spec.queueArguments());
    }

    @Test
    void theServersDelayedRetryIsDeclaredOnTheQuorumQueueWithItsCap() {
        SubscriptionSpec spec = SubscriptionSpec.builder("payouts").type(io.quarkiverse.rabbitmq.subscriber.QueueType.QUORUM)
                .maxAttempts(5).deadLetter("payouts.dead").retryDelay("1s", "1m").build();
        assertEquals(true, spec.serverDelaysRetries());
        Map<String, Object> arguments = spec.queueArguments();
        assertEquals("failed", arguments.get("x-delayed-retry-type"));
        assertEquals(1_000L, arguments.get("x-delayed-retry-min"));
        assertEquals(60_000L, arguments.get("x-delayed-retry-max"));
        assertEquals(4, arguments.get("x-delivery-limit"));
        assertEquals(false, SubscriptionSpec.builder("payouts").type(io.quarkiverse.rabbitmq.subscriber.QueueType.QUORUM)
                .retryDelay("0", "").build().serverDelaysRetries(), "min = 0 switches it off");
    }

    @Test
    void bindingKeysDefaultByType() {
        SubscriptionSpec spec = orders().binding("a", ExchangeType.TOPIC, List.of(), List.of())
                .binding("b", ExchangeType.DIRECT, List.of(), List.of())
                .binding("c", ExchangeType.FANOUT, List.of(), List.of())
                .binding("d", ExchangeType.HEADERS, List.of(), List.of("x-match=all", "n=1")).build();
        assertEquals(List.of(List.of("#"), List.of("orders"), List.of(""), List.of("")),
                spec.bindings.stream().map(binding -> binding.keys).toList());
        assertEquals(Map.of("x-match", "all", "n", 1L), spec.bindings.get(3).arguments);
    }

    @Test
    void anExchangeBoundWithTwoTypesConflicts() {
        List<SubscriptionSpec> specs = List.of(
                SubscriptionSpec.builder("b").binding("shop", ExchangeType.TOPIC, List.of(), List.of()).build(),
                SubscriptionSpec.builder("a").binding("shop", ExchangeType.DIRECT, List.of(), List.of()).build(),
                SubscriptionSpec.builder("c").binding("shop", ExchangeType.DIRECT, List.of(), List.of()).build());
        assertEquals(List.of("Exchange 'shop' is bound as DIRECT (queue 'a') and as TOPIC (queue 'b'): an exchange "
                + "has one type; use the same type in both @Binding annotations"),
                SubscriptionRules.conflicts(specs, null));
        assertEquals(List.of("Exchange 'delayed' is both the delayed-message exchange (quarkus.rabbitmq-subscriber."
                + "delayed-exchange.name) and bound by queue 'x': name another"),
                SubscriptionRules.conflicts(List.of(SubscriptionSpec.builder("x")
                        .binding("delayed", ExchangeType.TOPIC, List.of(), List.of()).build()), "delayed"));
    }
}
