package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * The {@link Outputs} one handler call is given, as the delivery path sees them: held until the delivery's verdict,
 * then taken to be published (an ack) or dropped. The outputs feature implements them; the core only carries them from
 * the call to the verdict.
 */
public interface HandlerOutputs extends Outputs {

    /** Closes these outputs and returns what was sent, in order: once the verdict is known. */
    List<Output> take();

    /** Opens the outputs of one call. */
    @FunctionalInterface
    interface Factory {

        /**
         * @param replyTo the delivery's {@code reply-to}, for {@code Outputs.reply}; null where nobody waits (a batch)
         * @param correlationId the delivery's correlation id; null when absent
         * @param what names the delivery (or batch) in errors
         */
        HandlerOutputs open(String replyTo, String correlationId, String what);
    }
}
