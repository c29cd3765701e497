package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * Tells what became of a delivery, once, as its settlement leaves ({@link DeliveryReporter}: the log line, the outcome
 * counter, the observation). A delivery its handler never ran for is not told: it is handled later.
 */
public final class Reporting implements VerdictStage {

    private final DeliveryReporter reporter;
    /** The type the payload is decoded as, for the undecodable's log line. */
    private final String expectedType;
    private final VerdictStage next;

    public Reporting(DeliveryReporter reporter, String expectedType, VerdictStage next) {
        this.reporter = reporter;
        this.expectedType = expectedType;
        this.next = next;
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        switch (verdict.kind()) {
            case UNDECODABLE -> reporter.undecodable(delivery, expectedType,
                    (UndecodablePayloadException) verdict.cause(), verdict.settlement());
            case FAILED -> reporter.failed(delivery, verdict);
            case HANDLED -> reporter.handled(delivery, verdict.outcome(), verdict.settlement());
            case DUPLICATE -> reporter.duplicate(delivery);
            case NOT_RUN -> {
                // Handled later: told then.
            }
        }
        next.pass(delivery, verdict);
    }
}
