package org.acme.refunds.bench;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.common.annotation.NonBlocking;

/**
 * The drain benchmark's no-op batch subscriber on the event loop, taking the bodies as byte[] (batches of 100, as
 * Spring AMQP's peer batch listener). Built only for the benchmark.
 */
@IfBuildProperty(name = "bench.drain", stringValue = "event-loop-batch")
public class EventLoopBatchDrain {

    private final DrainCounter counter = new DrainCounter();

    @NonBlocking
    @Subscriber(value = "bench.drain", batch = @Batch(size = 100, maxWait = "100ms"))
    void drain(List<byte[]> bodies) {
        counter.drained(bodies.size());
    }
}
