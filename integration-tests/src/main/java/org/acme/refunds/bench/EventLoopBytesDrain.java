package org.acme.refunds.bench;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;

/**
 * The event-loop drain with the body taken as bytes and a {@code Uni} result: the event-loop handler of the pinned
 * comparison with Spring AMQP (drain.sh pinned), where every client takes byte[] and decodes nothing.
 */
@IfBuildProperty(name = "bench.drain", stringValue = "event-loop-bytes")
public class EventLoopBytesDrain {

    private final DrainCounter counter = new DrainCounter();

    @Subscriber("bench.drain")
    Uni<Void> drain(byte[] body) {
        counter.drained();
        return Uni.createFrom().voidItem();
    }
}
