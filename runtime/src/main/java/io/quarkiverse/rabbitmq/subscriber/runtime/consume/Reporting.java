package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;

/**
 * Tells what became of a delivery, once, as its settlement leaves ({@link DeliveryReporter}: the log line, the outcome
 * counter, the observation). A delivery its handler never ran for is not told: it is handled later.
 */
final class Reporting implements VerdictStage {

    private final DeliveryReporter reporter;
    /** The type the payload is decoded as, for the undecodable's log line. */
    private final String expectedType;
    private final VerdictStage next;

    Reporting(DeliveryReporter reporter, String expectedType, VerdictStage next) {
        this.reporter = reporter;
        this.expectedType = expectedType;
        this.next = next;
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        HandlerResult result = verdict.result();
        if (result instanceof HandlerResult.Undecodable) {
            reporter.undecodable(delivery, expectedType, (UndecodablePayloadException) verdict.cause(),
                    verdict.settlement());
        } else if (result instanceof HandlerResult.Failed failed) {
            reporter.failed(delivery, failed, verdict.cause(), verdict.settlement());
        } else if (result instanceof HandlerResult.Handled handled) {
            reporter.handled(delivery, handled.outcome(), verdict.settlement());
        } else if (result instanceof HandlerResult.Duplicate) {
            reporter.duplicate(delivery);
        }
        next.pass(delivery, verdict);
    }
}
