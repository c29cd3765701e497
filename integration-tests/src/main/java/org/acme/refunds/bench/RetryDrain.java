package org.acme.refunds.bench;

import java.time.Duration;

import org.acme.refunds.Refund;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.common.annotation.NonBlocking;

/**
 * The retry benchmark's subscribers: every message is retried until its cap of 5 and dead-lettered, on a classic
 * queue (DEFAULT and CONFIRMED copies) and on a quorum queue; a plain ack beside them for the same run's baseline.
 * Only the queue the script filled has messages. Built only for the benchmark. Beside them, a plain ack with one
 * output ({@code Outputs}) for {@code ONLY=outputs}.
 */
@IfBuildProperty(name = "bench.retry", stringValue = "true")
public class RetryDrain {

    private final DrainCounter plain = new DrainCounter();
    private final DrainCounter output = new DrainCounter();
    private final DrainCounter outputTransient = new DrainCounter();
    private final DrainCounter classic = new DrainCounter();
    private final DrainCounter confirmed = new DrainCounter();
    private final DrainCounter quorum = new DrainCounter();
    private final DrainCounter quorumPlain = new DrainCounter();
    private final DrainCounter inService = new DrainCounter();
    private final DrainCounter ttl = new DrainCounter();
    private final DrainCounter perDelay = new DrainCounter();
    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    @NonBlocking
    @Subscriber(value = "bench.retry.quorum-plain", type = QueueType.QUORUM)
    void quorumPlain(Refund refund) {
        quorumPlain.drained();
    }

    @NonBlocking
    @Subscriber("bench.retry.plain")
    void plain(Refund refund) {
        plain.drained();
    }

    /** A plain ack with one output: the refund, published to a queue nobody consumes, confirmed before the ack. */
    @NonBlocking
    @Subscriber("bench.retry.output")
    Outcome output(Refund refund, Outputs outputs) {
        output.drained();
        outputs.send("bench.retry.output.sink", refund);
        return Outcome.ack();
    }

    /**
     * The same with a transient output, as the benchmark's inputs are: the broker then writes neither to disk, which
     * the persistent output's confirm waits for.
     */
    @NonBlocking
    @Subscriber("bench.retry.output-transient")
    Outcome transientOutput(Refund refund, Outputs outputs) {
        outputTransient.drained();
        outputs.send(OutgoingMessage.toQueue("bench.retry.output.sink").payload(refund).persistent(false));
        return Outcome.ack();
    }

    @NonBlocking
    @Subscriber(value = "bench.retry.classic", maxAttempts = 5, deadLetter = "bench.retry.classic.dead")
    Outcome classic(Refund refund) {
        classic.drained();
        return Outcome.retry();
    }

    @NonBlocking
    @Subscriber(value = "bench.retry.confirmed", maxAttempts = 5, deadLetter = "bench.retry.confirmed.dead", retryPublish = RetryPublish.CONFIRMED)
    Outcome confirmed(Refund refund) {
        confirmed.drained();
        return Outcome.retry();
    }

    @NonBlocking
    @Subscriber(value = "bench.retry.quorum", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "bench.retry.quorum.dead")
    Outcome quorum(Refund refund) {
        quorum.drained();
        return Outcome.retry();
    }

    @NonBlocking
    @Subscriber(value = "bench.retry.delay-inservice", maxAttempts = 5, deadLetter = "bench.retry.delay-inservice.dead")
    Outcome inService(Refund refund) {
        inService.drained();
        return Outcome.retryAfter(ONE_MILLI);
    }

    @NonBlocking
    @Subscriber(value = "bench.retry.delay-ttl", maxAttempts = 5, deadLetter = "bench.retry.delay-ttl.dead", delay = Delay.DLX_TTL)
    Outcome ttl(Refund refund) {
        ttl.drained();
        return Outcome.retryAfter(ONE_MILLI);
    }

    @NonBlocking
    @Subscriber(value = "bench.retry.delay-perdelay", maxAttempts = 5, deadLetter = "bench.retry.delay-perdelay.dead", delay = Delay.DLX_TTL_PER_DELAY, delays = "1ms")
    Outcome perDelay(Refund refund) {
        perDelay.drained();
        return Outcome.retryAfter(ONE_MILLI);
    }
}
