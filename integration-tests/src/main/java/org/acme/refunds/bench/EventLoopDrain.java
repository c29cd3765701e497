package org.acme.refunds.bench;

import org.acme.refunds.Refund;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.common.annotation.NonBlocking;

/** The drain benchmark's no-op subscriber on the event loop. Built only for the benchmark. */
@IfBuildProperty(name = "bench.drain", stringValue = "event-loop")
public class EventLoopDrain {

    private final DrainCounter counter = new DrainCounter();

    @NonBlocking
    @Subscriber("bench.drain")
    void drain(Refund refund) {
        counter.drained();
    }
}
