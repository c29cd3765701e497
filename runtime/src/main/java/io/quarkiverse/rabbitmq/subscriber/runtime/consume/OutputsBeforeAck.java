package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.List;
import java.util.function.BiFunction;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutputNotPublishedException;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.OutputsResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;

/**
 * A handler answered {@code ack} and produced outputs: the delivery is acked once every output is confirmed; an output
 * that does not reach a queue is a failure of the delivery, as a throw would be. Until then the delivery keeps its
 * place in the concurrency gate.
 */
final class OutputsBeforeAck {

    private static final Logger LOG = Logger.getLogger(OutputsBeforeAck.class);

    private final Settler settler;
    private final DeliveryReporter reporter;
    private final KillSwitch killSwitch;
    private final ConcurrencyGate gate;
    private final ResultReading reading;
    /** What a delivery's result settles it with. */
    private final BiFunction<InboundDelivery, HandlerResult, Settlement> decide;

    OutputsBeforeAck(Settler settler, DeliveryReporter reporter, KillSwitch killSwitch, ConcurrencyGate gate,
            ResultReading reading, BiFunction<InboundDelivery, HandlerResult, Settlement> decide) {
        this.settler = settler;
        this.reporter = reporter;
        this.killSwitch = killSwitch;
        this.gate = gate;
        this.reading = reading;
        this.decide = decide;
    }

    void publishThenAck(InboundDelivery delivery, Outcome handled, List<Output> outputs) {
        settler.publishOutputs(delivery, outputs, new OutputsResult() {
            @Override
            public void confirmed() {
                reporter.handled(delivery, handled, Settlement.ACK);
                if (settler.settle(delivery, Settlement.ACK)) {
                    gate.released();
                }
            }

            @Override
            public void failed(String why) {
                // Logged once, as any failure: WARN while it gets another attempt, ERROR when it is given up.
                killSwitch.failed();
                HandlerResult failed = reading.failure(new OutputNotPublishedException(why));
                Settlement settlement = decide.apply(delivery, failed);
                reporter.failed(delivery, (HandlerResult.Failed) failed, null, settlement);
                settler.settle(delivery, settlement);
                if (delivery.isSettled()) {
                    gate.released();
                }
            }

            @Override
            public void abandoned() {
                settler.abandoned(delivery);
                gate.released();
            }

            @Override
            public void requeue(String why) {
                LOG.debugf("%s for %s on queue '%s'; requeueing it", why, delivery.describe(), delivery.queue());
                settler.requeueAfterPause(delivery, gate::released);
            }
        });
    }
}
