package org.acme.peer;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;

/** The event-loop handler: takes the body as bytes, records, acks. */
@IfBuildProperty(name = "bench.mode", stringValue = "event-loop")
public class EventLoopLatency {

    private final LatencyRecorder recorder = new LatencyRecorder();

    @Subscriber("bench.latency")
    Uni<Void> handle(byte[] body) {
        recorder.handled(body);
        return Uni.createFrom().voidItem();
    }
}
