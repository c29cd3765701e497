package org.acme.refunds.bench;

import org.acme.refunds.Refund;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;

/** The drain benchmark's no-op subscriber, as a plain method (it runs on a worker). Built only for the benchmark. */
@IfBuildProperty(name = "bench.drain", stringValue = "worker")
public class WorkerDrain {

    private final DrainCounter counter = new DrainCounter();

    @Subscriber("bench.drain")
    void drain(Refund refund) {
        counter.drained();
    }
}
