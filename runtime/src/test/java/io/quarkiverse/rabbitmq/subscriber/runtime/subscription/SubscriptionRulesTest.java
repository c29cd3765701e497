package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;

/**
 * The rules of one subscription as a test table: the subscription as declared, the two settings the rules read, and
 * every problem the build reports for it, in its order. Then the rules over all the subscriptions.
 */
class SubscriptionRulesTest {

    /** {@code declare-topology}. */
    static final boolean DECLARES = true;
    static final boolean DOES_NOT_DECLARE = false;
    /** {@code delayed-exchange.enabled}. */
    static final boolean PLUGIN = true;
    static final boolean NO_PLUGIN = false;

    static SubscriptionDeclaration classic() {
        return SubscriptionSpec.builder("refunds");
    }

    static SubscriptionDeclaration quorum() {
        return SubscriptionSpec.builder("payouts").type(QueueType.QUORUM);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // subscription, declare-topology, delayed exchange enabled, problems
                Arguments.of("a plain classic queue", classic(), DECLARES, NO_PLUGIN, List.of()),
                Arguments.of("a plain quorum queue", quorum(), DECLARES, NO_PLUGIN, List.of()),

                Arguments.of("no queue", SubscriptionSpec.builder(" "), DECLARES, NO_PLUGIN,
                        List.of("names no queue: @Subscriber(\"<queue>\") needs the queue to consume")),
                Arguments.of("a reserved queue", SubscriptionSpec.builder("amq.mine"), DECLARES, NO_PLUGIN,
                        List.of("consumes queue 'amq.mine': RabbitMQ reserves the 'amq.' prefix and refuses to "
                                + "declare it")),
                Arguments.of("deliveryLimit on a classic queue", classic().deliveryLimit(3), DECLARES, NO_PLUGIN,
                        List.of("sets deliveryLimit on a classic queue: only quorum queues count deliveries "
                                + "(use type = QueueType.QUORUM)")),
                Arguments.of("a negative deliveryLimit", quorum().deliveryLimit(-2), DECLARES, NO_PLUGIN,
                        List.of("sets deliveryLimit = -2: it must be 0 or more")),
                Arguments.of("a deliveryLimit of 0 on a quorum queue", quorum().deliveryLimit(0), DECLARES, NO_PLUGIN,
                        List.of()),
                Arguments.of("a negative prefetch", classic().prefetch(-1), DECLARES, NO_PLUGIN,
                        List.of("sets prefetch = -1: it must be 0 (the configured default) or more")),

                Arguments.of("a negative maxAttempts", classic().maxAttempts(-1), DECLARES, NO_PLUGIN,
                        List.of("sets maxAttempts = -1: it must be 0 (no cap) or more")),
                Arguments.of("a negative concurrency", classic().concurrency(-1), DECLARES, NO_PLUGIN,
                        List.of("sets concurrency = -1: it must be 0 (up to the prefetch) or more")),
                Arguments.of("dead letters to its own queue", classic().maxAttempts(3).deadLetter("refunds"),
                        DECLARES, NO_PLUGIN,
                        List.of("sets deadLetter = 'refunds', its own queue: dead letters would be consumed again as "
                                + "work; name another queue")),
                Arguments.of("dead letters to a reserved queue", classic().maxAttempts(3).deadLetter("amq.dead"),
                        DECLARES, NO_PLUGIN,
                        List.of("sets deadLetter = 'amq.dead': RabbitMQ reserves the 'amq.' prefix")),
                Arguments.of("classic: a dead-letter queue without a cap", classic().deadLetter("refunds.dead"),
                        DECLARES, NO_PLUGIN,
                        List.of("sets deadLetter on classic queue 'refunds' without maxAttempts: the route would never "
                                + "be used. Set maxAttempts, or give the queue its own dead-letter exchange to keep "
                                + "dropped messages")),
                Arguments.of("classic: a cap and its dead-letter queue", classic().maxAttempts(3)
                        .deadLetter("refunds.dead"), DECLARES, NO_PLUGIN, List.of()),
                Arguments.of("classic: an empty dead-letter queue is none", classic().deadLetter(""), DECLARES,
                        NO_PLUGIN, List.of()),
                Arguments.of("classic: a confirmed retry publish", classic().maxAttempts(3)
                        .retryPublish(RetryPublish.CONFIRMED), DECLARES, NO_PLUGIN, List.of()),

                Arguments.of("quorum: a cap without a dead-letter queue", quorum().maxAttempts(5), DECLARES, NO_PLUGIN,
                        List.of("sets maxAttempts on quorum queue 'payouts' without deadLetter: half a declaration. "
                                + "The server would discard a message at the cap; name the dead-letter queue "
                                + "(deadLetter), or use deliveryLimit alone if discarding is what you want")),
                Arguments.of("quorum: a dead-letter queue without a cap", quorum().deadLetter("payouts.dead"),
                        DECLARES, NO_PLUGIN,
                        List.of("sets deadLetter on quorum queue 'payouts' without maxAttempts: half a declaration. "
                                + "The route would only ever see dropped messages; set maxAttempts too")),
                Arguments.of("quorum: a cap and a deliveryLimit", quorum().maxAttempts(5).deadLetter("payouts.dead")
                        .deliveryLimit(9), DECLARES, NO_PLUGIN,
                        List.of("sets both maxAttempts and deliveryLimit on quorum queue 'payouts': maxAttempts "
                                + "already sets x-delivery-limit (maxAttempts - 1); remove deliveryLimit")),
                Arguments.of("quorum: a retry publish policy", quorum().maxAttempts(5).deadLetter("payouts.dead")
                        .retryPublish(RetryPublish.CONFIRMED), DECLARES, NO_PLUGIN,
                        List.of("sets retryPublish on quorum queue 'payouts': the server counts and dead-letters "
                                + "there, so there is no copy to publish; remove it")),
                Arguments.of("quorum: the default retry publish policy, named", quorum()
                        .retryPublish(RetryPublish.DEFAULT), DECLARES, NO_PLUGIN,
                        List.of("sets retryPublish on quorum queue 'payouts': the server counts and dead-letters "
                                + "there, so there is no copy to publish; remove it")),
                Arguments.of("quorum: a cap on a queue it does not declare", quorum().maxAttempts(5)
                        .deadLetter("payouts.dead"), DOES_NOT_DECLARE, NO_PLUGIN,
                        List.of("caps quorum queue 'payouts' (maxAttempts) while quarkus.rabbitmq-subscriber."
                                + "declare-topology is false: the cap would apply nowhere (a queue declared elsewhere "
                                + "keeps its owner's arguments). Set the limit and route on the queue itself (its "
                                + "declaration or a policy) and remove them here, or turn declaration on")),
                Arguments.of("quorum: a deliveryLimit on a queue it does not declare", quorum().deliveryLimit(4),
                        DOES_NOT_DECLARE, NO_PLUGIN,
                        List.of("caps quorum queue 'payouts' (deliveryLimit) while quarkus.rabbitmq-subscriber."
                                + "declare-topology is false: the cap would apply nowhere (a queue declared elsewhere "
                                + "keeps its owner's arguments). Set the limit and route on the queue itself (its "
                                + "declaration or a policy) and remove them here, or turn declaration on")),
                Arguments.of("quorum: a cap and its dead-letter queue", quorum().maxAttempts(5)
                        .deadLetter("payouts.dead"), DECLARES, NO_PLUGIN, List.of()),
                Arguments.of("quorum: no cap on a queue it does not declare", quorum(), DOES_NOT_DECLARE, NO_PLUGIN,
                        List.of()),

                Arguments.of("the plugin, not enabled", classic().delay(Delay.PLUGIN), DECLARES, NO_PLUGIN,
                        List.of("sets delay = PLUGIN but the delayed-message exchange is not enabled: set "
                                + "quarkus.rabbitmq-subscriber.delayed-exchange.enabled=true on a broker with the "
                                + "rabbitmq_delayed_message_exchange plugin, or use delay = DLX_TTL (no plugin "
                                + "needed)")),
                Arguments.of("the plugin, enabled", classic().delay(Delay.PLUGIN), DECLARES, PLUGIN, List.of()),
                Arguments.of("a waiting queue in the service", classic().waitingQueue("refunds.later"), DECLARES,
                        NO_PLUGIN,
                        List.of("sets waitingQueue = 'refunds.later' with delay = IN_SERVICE, which has no waiting "
                                + "queue: use delay = DLX_TTL or DLX_TTL_PER_DELAY, or remove waitingQueue")),
                Arguments.of("a waiting queue with the plugin", classic().delay(Delay.PLUGIN)
                        .waitingQueue("refunds.later"), DECLARES, PLUGIN,
                        List.of("sets waitingQueue = 'refunds.later' with delay = PLUGIN, which has no waiting "
                                + "queue: use delay = DLX_TTL or DLX_TTL_PER_DELAY, or remove waitingQueue")),
                Arguments.of("waits in its own queue", classic().delay(Delay.DLX_TTL).waitingQueue("refunds"),
                        DECLARES, NO_PLUGIN,
                        List.of("sets waitingQueue = 'refunds', its own queue: copies would be consumed at once "
                                + "instead of waiting; name another queue")),
                Arguments.of("waits in its dead-letter queue", classic().delay(Delay.DLX_TTL).maxAttempts(3)
                        .deadLetter("refunds.dead").waitingQueue("refunds.dead"), DECLARES, NO_PLUGIN,
                        List.of("sets waitingQueue = 'refunds.dead', its dead-letter queue: dead letters would expire "
                                + "back into work; name another queue")),
                Arguments.of("the default waiting queue is its dead-letter queue", classic().delay(Delay.DLX_TTL)
                        .maxAttempts(3).deadLetter("refunds.retry"), DECLARES, NO_PLUGIN,
                        List.of("sets waitingQueue = 'refunds.retry', its dead-letter queue: dead letters would expire "
                                + "back into work; name another queue")),
                Arguments.of("waits in a reserved queue", classic().delay(Delay.DLX_TTL_PER_DELAY)
                        .waitingQueue("amq.later").delays(List.of("1s")), DECLARES, NO_PLUGIN,
                        List.of("sets waitingQueue = 'amq.later': RabbitMQ reserves the 'amq.' prefix")),
                Arguments.of("the default waiting queue", classic().delay(Delay.DLX_TTL), DECLARES, NO_PLUGIN,
                        List.of()),

                Arguments.of("delays with one waiting queue", classic().delay(Delay.DLX_TTL).delays(List.of("1s")),
                        DECLARES, NO_PLUGIN,
                        List.of("lists delays [1s] with delay = DLX_TTL: only DLX_TTL_PER_DELAY declares a waiting "
                                + "queue per delay; use it, or remove delays")),
                Arguments.of("a queue per delay without delays", classic().delay(Delay.DLX_TTL_PER_DELAY), DECLARES,
                        NO_PLUGIN,
                        List.of("sets delay = DLX_TTL_PER_DELAY without delays: list the delays its handler asks for, "
                                + "e.g. delays = {\"1s\", \"30s\"}, one waiting queue is declared for each")),
                Arguments.of("a delay that is no duration", classic().delay(Delay.DLX_TTL_PER_DELAY)
                        .delays(List.of("soon", "1s")), DECLARES, NO_PLUGIN,
                        List.of("lists delay 'soon' is not a duration (write it as 500ms, 30s, 5m, 2h, 1d or PT30S)")),
                Arguments.of("a delay of zero", classic().delay(Delay.DLX_TTL_PER_DELAY).delays(List.of("0s")),
                        DECLARES, NO_PLUGIN, List.of("lists delay '0s': a delay must be longer than zero")),
                Arguments.of("a delay twice", classic().delay(Delay.DLX_TTL_PER_DELAY)
                        .delays(List.of("30s", "1s", "PT30S")), DECLARES, NO_PLUGIN,
                        List.of("lists the delay 30s twice ('PT30S')")),
                Arguments.of("a queue per delay", classic().delay(Delay.DLX_TTL_PER_DELAY)
                        .delays(List.of("500ms", "30s")), DECLARES, NO_PLUGIN, List.of()),

                Arguments.of("every problem, in order", SubscriptionSpec.builder("amq.q").prefetch(-1).maxAttempts(-1)
                        .delay(Delay.PLUGIN).delays(List.of("1s")), DECLARES, NO_PLUGIN,
                        List.of("consumes queue 'amq.q': RabbitMQ reserves the 'amq.' prefix and refuses to declare it",
                                "sets prefetch = -1: it must be 0 (the configured default) or more",
                                "sets maxAttempts = -1: it must be 0 (no cap) or more",
                                "sets delay = PLUGIN but the delayed-message exchange is not enabled: set "
                                        + "quarkus.rabbitmq-subscriber.delayed-exchange.enabled=true on a broker with "
                                        + "the rabbitmq_delayed_message_exchange plugin, or use delay = DLX_TTL (no "
                                        + "plugin needed)",
                                "lists delays [1s] with delay = PLUGIN: only DLX_TTL_PER_DELAY declares a waiting "
                                        + "queue per delay; use it, or remove delays")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void judges(String name, SubscriptionDeclaration declared, boolean declareTopology, boolean delayedExchangeEnabled,
            List<String> expected) {
        assertEquals(expected, SubscriptionRules.problems(declared, declareTopology, delayedExchangeEnabled));
    }

    static final SubscriptionSpec REFUNDS = classic().maxAttempts(5).deadLetter("refunds.dead").delay(Delay.DLX_TTL)
            .build();
    static final SubscriptionSpec ORDERS = SubscriptionSpec.builder("orders").maxAttempts(3).deadLetter("shared.dead")
            .delay(Delay.DLX_TTL_PER_DELAY).delays(List.of("30s", "500ms", "5m")).build();
    static final SubscriptionSpec PAYOUTS = quorum().maxAttempts(5).deadLetter("shared.dead").delay(Delay.PLUGIN)
            .delayedExchange("delayed").build();
    static final SubscriptionSpec DEAD_READER = SubscriptionSpec.builder("refunds.dead").build();

    @Test
    void conflictsAreNamed() {
        SubscriptionSpec waitsInOrders = SubscriptionSpec.builder("a").delay(Delay.DLX_TTL).waitingQueue("orders")
                .build();
        SubscriptionSpec waitsInDead = SubscriptionSpec.builder("b").delay(Delay.DLX_TTL).waitingQueue("shared.dead")
                .build();
        SubscriptionSpec waitsWithB = SubscriptionSpec.builder("c").delay(Delay.DLX_TTL).waitingQueue("shared.dead")
                .build();
        assertEquals(List.of(
                "Queue 'orders' is both the work queue of a subscriber and the waiting queue of 'a': a waiting queue "
                        + "dead-letters everything to one work queue and must have no consumer; name another "
                        + "waitingQueue",
                "Queue 'shared.dead' is both the waiting queue of 'b' and the waiting queue of 'c': a waiting queue "
                        + "dead-letters everything to one work queue and must have no consumer; name another "
                        + "waitingQueue",
                "Queue 'shared.dead' is both the waiting queue of 'b' and the dead-letter queue of 'orders': dead "
                        + "letters would expire back into work; name another"),
                SubscriptionRules.conflicts(List.of(waitsWithB, ORDERS, waitsInOrders, waitsInDead)));
        assertEquals(List.of(), SubscriptionRules.conflicts(List.of(REFUNDS, DEAD_READER, PAYOUTS, ORDERS)),
                "a dead-letter queue another subscriber reads is the usual chain");
    }

    @Test
    void overridesOfQueuesNoSubscriptionConsumesAreNamedInOrder() {
        assertEquals(List.of(
                "quarkus.rabbitmq-subscriber.queues.\"a.typo\".* overrides queue 'a.typo', which no @Subscriber method "
                        + "consumes (they consume [orders, refunds]): fix the queue name or remove the override",
                "quarkus.rabbitmq-subscriber.queues.\"b.typo\".* overrides queue 'b.typo', which no @Subscriber method "
                        + "consumes (they consume [orders, refunds]): fix the queue name or remove the override"),
                SubscriptionRules.unusedOverrides(List.of("refunds", "b.typo", "a.typo"), List.of(REFUNDS, ORDERS)));
        assertEquals(List.of(), SubscriptionRules.unusedOverrides(List.of("orders"), List.of(REFUNDS, ORDERS)));
    }

    @Test
    void theDelayedExchangeNeedsANameRabbitMqDeclares() {
        assertEquals(List.of("quarkus.rabbitmq-subscriber.delayed-exchange.name='amq.delayed' cannot be declared: "
                + "name an exchange outside RabbitMQ's reserved 'amq.' prefix"),
                SubscriptionRules.delayedExchangeProblems(true, "amq.delayed"));
        assertEquals(List.of("quarkus.rabbitmq-subscriber.delayed-exchange.name=' ' cannot be declared: "
                + "name an exchange outside RabbitMQ's reserved 'amq.' prefix"),
                SubscriptionRules.delayedExchangeProblems(true, " "));
        assertEquals(List.of(), SubscriptionRules.delayedExchangeProblems(true, "rabbitmq-subscriber.delayed"));
        assertEquals(List.of(), SubscriptionRules.delayedExchangeProblems(false, "amq.delayed"),
                "not enabled: never declared");
    }
}
