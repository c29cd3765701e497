package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * The tables of {@code docs/modules/ROOT/pages/retries.adoc} ("What each outcome sends", "What failures become") as a
 * test table: the subscription, the delivery's retry count and redelivered flag, the handler's result, and what the
 * settler must send.
 */
class SettlementPlanTest {

    static final SubscriptionSpec CLASSIC = SubscriptionSpec.builder("refunds").build();
    static final SubscriptionSpec CAPPED = SubscriptionSpec.builder("refunds").maxAttempts(5).deadLetter("refunds.dead")
            .build();
    static final SubscriptionSpec CAPPED_CONFIRMED = SubscriptionSpec.builder("refunds").maxAttempts(5)
            .deadLetter("refunds.dead").retryPublish(RetryPublish.CONFIRMED).build();
    static final SubscriptionSpec CAPPED_NO_ROUTE = SubscriptionSpec.builder("refunds").maxAttempts(3).build();
    static final SubscriptionSpec QUORUM = SubscriptionSpec.builder("payouts").type(QueueType.QUORUM).build();
    static final SubscriptionSpec QUORUM_CAPPED = SubscriptionSpec.builder("payouts").type(QueueType.QUORUM)
            .maxAttempts(5).deadLetter("payouts.dead").build();
    static final SubscriptionSpec QUORUM_LIMIT = SubscriptionSpec.builder("payouts").type(QueueType.QUORUM)
            .deliveryLimit(3).build();
    /** The subscriber of another subscription's dead-letter queue. */
    /** The server's delayed retry (RabbitMQ 4.3): the server waits, the cap is x-delivery-limit. */
    static final SubscriptionSpec QUORUM_SERVER_DELAY = SubscriptionSpec.builder("payouts").type(QueueType.QUORUM)
            .maxAttempts(5).deadLetter("payouts.dead").retryDelay("1s", "1m").build();
    static final SubscriptionSpec DEAD_LETTER_READER = SubscriptionSpec.builder("refunds.dead").readsDeadLetters(true)
            .build();

    static final FailureInfo BOOM = new FailureInfo("java.lang.IllegalStateException", "boom");
    static final Verdict ACK = Verdict.handled(Outcome.ack());
    static final Verdict RETRY = Verdict.handled(Outcome.retry());
    static final Verdict DROP = Verdict.handled(Outcome.drop());
    static final Verdict LATER = Verdict.handled(Outcome.retryAfter(Duration.ofSeconds(30)));
    static final Verdict FAILED = Verdict.failed(BOOM, false, null);
    /** To the reader's parking queue, confirmed, keeping the letter's own failure headers, with the reader's reason. */
    static final Settlement PARKED = new Settlement.Republish(Settlement.Target.PARK, "refunds.dead.parked", 1, null,
            java.time.Duration.ZERO, true, BOOM.type() + ": " + BOOM.message());
    static final Verdict UNDECODABLE = new Verdict(Verdict.Kind.UNDECODABLE, null, BOOM, false, null, null);
    static final Verdict DEAD_NOW = Verdict.handled(Outcome.deadLetter("card closed"));
    /** A failure of a deadLetterOn type. */
    static final Verdict FAILED_FOR_GOOD = Verdict.failed(BOOM, true, null);

    static Settlement copy(int count, FailureInfo failure, boolean confirmed) {
        return new Settlement.Republish(Settlement.Target.COPY, "refunds", count, failure, Duration.ZERO, confirmed);
    }

    static Settlement dead(String queue, int count, FailureInfo failure, boolean confirmed) {
        return new Settlement.Republish(Settlement.Target.DEAD_LETTER, queue, count, failure, Duration.ZERO, confirmed);
    }

    static Settlement held(String queue, int count) {
        return new Settlement.Republish(Settlement.Target.COPY, queue, count, null, Duration.ofSeconds(30), false);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // subscription, retry count, redelivered, result, settlement
                Arguments.of("classic ack", CLASSIC, 1, false, ACK, Settlement.ACK),
                Arguments.of("classic retry requeues", CLASSIC, 1, false, RETRY, Settlement.REQUEUE),
                Arguments.of("classic drop rejects", CLASSIC, 1, false, DROP, Settlement.REJECT),
                Arguments.of("classic retryAfter holds a copy", CLASSIC, 1, false, LATER, held("refunds", 2)),
                Arguments.of("classic failure, first delivery: requeue", CLASSIC, 1, false, FAILED, Settlement.REQUEUE),
                Arguments.of("classic failure, redelivered: reject", CLASSIC, 1, true, FAILED, Settlement.REJECT),
                Arguments.of("classic undecodable: reject", CLASSIC, 1, false, UNDECODABLE, Settlement.REJECT),

                Arguments.of("capped ack", CAPPED, 3, false, ACK, Settlement.ACK),
                Arguments.of("capped retry copies with count+1", CAPPED, 1, false, RETRY, copy(2, null, false)),
                Arguments.of("capped retry at 4 of 5 copies", CAPPED, 4, false, RETRY, copy(5, null, false)),
                Arguments.of("capped retry at the cap dead-letters", CAPPED, 5, false, RETRY,
                        dead("refunds.dead", 5, null, false)),
                Arguments.of("capped retry past the cap dead-letters", CAPPED, 9, true, RETRY,
                        dead("refunds.dead", 9, null, false)),
                Arguments.of("capped drop never dead-letters", CAPPED, 5, false, DROP, Settlement.REJECT),
                Arguments.of("capped retryAfter holds a counted copy", CAPPED, 2, false, LATER, held("refunds", 3)),
                Arguments.of("capped retryAfter at the cap dead-letters", CAPPED, 5, false, LATER,
                        dead("refunds.dead", 5, null, false)),
                Arguments.of("capped failure copies with the failure", CAPPED, 1, true, FAILED, copy(2, BOOM, false)),
                Arguments.of("capped failure at the cap dead-letters with it", CAPPED, 5, false, FAILED,
                        dead("refunds.dead", 5, BOOM, false)),
                Arguments.of("capped undecodable: dead letter at once", CAPPED, 1, false, UNDECODABLE,
                        dead("refunds.dead", 1, BOOM, false)),
                Arguments.of("confirmed copy", CAPPED_CONFIRMED, 1, false, RETRY, copy(2, null, true)),
                Arguments.of("confirmed dead letter", CAPPED_CONFIRMED, 5, false, FAILED,
                        dead("refunds.dead", 5, BOOM, true)),
                Arguments.of("cap without dead-letter queue: reject at the cap", CAPPED_NO_ROUTE, 3, false, RETRY,
                        Settlement.REJECT),
                Arguments.of("cap without dead-letter queue: copy before it", CAPPED_NO_ROUTE, 2, false, RETRY,
                        copy(3, null, false)),
                Arguments.of("cap without dead-letter queue: undecodable rejects", CAPPED_NO_ROUTE, 1, false,
                        UNDECODABLE, Settlement.REJECT),

                Arguments.of("quorum retry requeues", QUORUM_CAPPED, 1, false, RETRY, Settlement.REQUEUE),
                Arguments.of("quorum retry without a header requeues: the server counts", QUORUM_CAPPED, 1, true,
                        RETRY, Settlement.REQUEUE),
                Arguments.of("quorum drop rejects", QUORUM_CAPPED, 1, false, DROP, Settlement.REJECT),
                Arguments.of("quorum capped failure requeues", QUORUM_CAPPED, 1, true, FAILED, Settlement.REQUEUE),
                Arguments.of("quorum with its own limit: failure requeues", QUORUM_LIMIT, 1, true, FAILED,
                        Settlement.REQUEUE),
                Arguments.of("quorum without a limit of ours: the server's own limit counts", QUORUM, 1, true,
                        FAILED, Settlement.REQUEUE),
                Arguments.of("quorum without a limit, first failure requeues", QUORUM, 1, false, FAILED,
                        Settlement.REQUEUE),
                Arguments.of("server delay: retryAfter is a reject with requeue, the server waits", QUORUM_SERVER_DELAY,
                        1, false, LATER, Settlement.REQUEUE),
                Arguments.of("server delay: a failure is a reject with requeue", QUORUM_SERVER_DELAY, 1, true, FAILED,
                        Settlement.REQUEUE),
                Arguments.of("server delay: retry is a reject with requeue", QUORUM_SERVER_DELAY, 3, true, RETRY,
                        Settlement.REQUEUE),
                Arguments.of("dead-letter reader: a first failure requeues", DEAD_LETTER_READER, 1, false, FAILED,
                        Settlement.REQUEUE),
                Arguments.of("dead-letter reader: a failed redelivery is parked", DEAD_LETTER_READER, 1, true, FAILED,
                        PARKED),
                Arguments.of("dead-letter reader: undecodable is parked", DEAD_LETTER_READER, 1, false, UNDECODABLE,
                        PARKED),
                Arguments.of("dead-letter reader: drop still rejects", DEAD_LETTER_READER, 1, false, DROP,
                        Settlement.REJECT),
                Arguments.of("quorum retryAfter holds a copy", QUORUM_CAPPED, 1, false, LATER, held("payouts", 2)),
                Arguments.of("quorum undecodable rejects (the route takes it)", QUORUM_CAPPED, 1, false, UNDECODABLE,
                        Settlement.REJECT),

                Arguments.of("capped deadLetter: the dead letter now, with its reason", CAPPED, 1, false, DEAD_NOW,
                        new Settlement.Republish(Settlement.Target.DEAD_LETTER, "refunds.dead", 1, null, Duration.ZERO,
                                false, "card closed")),
                Arguments.of("capped deadLetterOn failure: the dead letter now, with the failure", CAPPED, 1, false,
                        FAILED_FOR_GOOD, dead("refunds.dead", 1, BOOM, false)),
                Arguments.of("quorum deadLetter: reject, the route takes it", QUORUM_CAPPED, 1, false, DEAD_NOW,
                        Settlement.REJECT),
                Arguments.of("quorum deadLetterOn failure: reject", QUORUM_CAPPED, 1, false, FAILED_FOR_GOOD,
                        Settlement.REJECT),
                Arguments.of("classic deadLetter without a dead-letter queue: a drop", CLASSIC, 1, false, DEAD_NOW,
                        Settlement.REJECT),
                Arguments.of("cap without dead-letter queue: deadLetter drops", CAPPED_NO_ROUTE, 1, false, DEAD_NOW,
                        Settlement.REJECT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, SubscriptionSpec subscription, int retryCount, boolean redelivered, Verdict result,
            Settlement expected) {
        assertEquals(expected, SettlementPlan.decide(subscription, retryCount, 0, redelivered, result));
    }

    /**
     * A quorum queue under a cap of 5 with delayed retries: a delivery's attempt is the retry-count header (what the
     * delayed copies before it used) plus the server's x-delivery-count. The server alone ends a loop of plain retries;
     * once a copy carries a header, the runtime ends it at the cap, so any mix of retry and retryAfter gets 5.
     */
    static Stream<Arguments> quorumMixes() {
        return Stream.of(
                // retry-count header, x-delivery-count, result, settlement
                Arguments.of("first delivery, retryAfter: a copy counted as the 2nd", 1, 0, LATER, held("payouts", 2)),
                Arguments.of("3rd delivery (server count 2), retryAfter: copy as the 4th", 1, 2, LATER,
                        held("payouts", 4)),
                Arguments.of("5th delivery (server count 4), retryAfter: dead letter", 1, 4, LATER,
                        dead("payouts.dead", 5, null, false)),
                Arguments.of("no header, 5th delivery, retry: requeue, the server dead-letters", 1, 4, RETRY,
                        Settlement.REQUEUE),
                Arguments.of("copy as the 3rd, first delivery, retry: requeue", 3, 0, RETRY, Settlement.REQUEUE),
                Arguments.of("copy as the 3rd, returned twice (5th), retry: dead letter", 3, 2, RETRY,
                        dead("payouts.dead", 5, null, false)),
                Arguments.of("copy as the 3rd, returned twice (5th), failure: dead letter with it", 3, 2, FAILED,
                        dead("payouts.dead", 5, BOOM, false)),
                Arguments.of("copy as the 4th, returned once (5th), retryAfter: dead letter", 4, 1, LATER,
                        dead("payouts.dead", 5, null, false)),
                Arguments.of("copy as the 5th, retry: dead letter", 5, 0, RETRY, dead("payouts.dead", 5, null, false)),
                Arguments.of("copy as the 5th, drop: reject (the route takes it)", 5, 0, DROP, Settlement.REJECT),
                Arguments.of("copy as the 5th, ack", 5, 0, ACK, Settlement.ACK));
    }

    static final SubscriptionSpec PARTITION = SubscriptionSpec.builder("ledger").partitions(4, "").build();
    static final SubscriptionSpec PARTITION_CAPPED = SubscriptionSpec.builder("ledger").partitions(4, "")
            .maxAttempts(3).deadLetter("ledger.dead").build();
    static final SubscriptionSpec PARTITION_QUORUM = SubscriptionSpec.builder("ledger").partitions(4, "")
            .type(QueueType.QUORUM).maxAttempts(3).deadLetter("ledger.dead").build();
    static final SubscriptionSpec PARTITION_BACKOFF = SubscriptionSpec.builder("ledger").partitions(4, "")
            .maxAttempts(5).deadLetter("ledger.dead").backoff("1s", 2, "10s").build();

    /**
     * A partition's retries are handled again in place (nothing published back, nothing requeued: the messages behind
     * would pass it), counted against the cap; at the cap, to the dead-letter queue as any subscription of its type.
     */
    static Stream<Arguments> partitions() {
        return Stream.of(
                // subscription, attempt, result, settlement
                Arguments.of("retry: again at once", PARTITION, 1, RETRY, new Settlement.Again(Duration.ZERO, 2)),
                Arguments.of("retryAfter: again after its delay", PARTITION, 1, LATER,
                        new Settlement.Again(Duration.ofSeconds(30), 2)),
                Arguments.of("failure: again at once", PARTITION, 7, FAILED, new Settlement.Again(Duration.ZERO, 8)),
                Arguments.of("failure under a back-off: again after its wait", PARTITION_BACKOFF, 2, FAILED,
                        new Settlement.Again(Duration.ofSeconds(2), 3)),
                Arguments.of("ack", PARTITION, 2, ACK, Settlement.ACK),
                Arguments.of("drop", PARTITION, 1, DROP, Settlement.REJECT),
                Arguments.of("classic, last attempt: the runtime's dead letter", PARTITION_CAPPED, 3, FAILED,
                        dead("ledger.dead", 3, BOOM, false)),
                Arguments.of("classic, before the last: again", PARTITION_CAPPED, 2, RETRY,
                        new Settlement.Again(Duration.ZERO, 3)),
                Arguments.of("quorum, last attempt: reject, the queue's route dead-letters it", PARTITION_QUORUM, 3,
                        FAILED, Settlement.REJECT),
                Arguments.of("undecodable: as any subscription", PARTITION_CAPPED, 1, UNDECODABLE,
                        dead("ledger.dead", 1, BOOM, false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("partitions")
    void retriesAPartitionsDeliveriesInPlace(String name, SubscriptionSpec subscription, int attempt,
            Verdict result, Settlement expected) {
        assertEquals(expected, SettlementPlan.decide(subscription, attempt, 0, false, result));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("quorumMixes")
    void endsQuorumLoopsOfAnyMixAtTheCap(String name, int retryCount, int deliveryCount, Verdict result,
            Settlement expected) {
        assertEquals(expected, SettlementPlan.decide(QUORUM_CAPPED, retryCount, deliveryCount, false, result));
    }
}
