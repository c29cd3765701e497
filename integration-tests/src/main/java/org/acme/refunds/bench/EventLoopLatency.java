package org.acme.refunds.bench;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;

/** The latency benchmark's event-loop handler (bench/latency.sh): takes the body as bytes, records, acks. */
@IfBuildProperty(name = "bench.drain", stringValue = "latency-event-loop")
public class EventLoopLatency {

    private final LatencyRecorder recorder = new LatencyRecorder();

    @Subscriber("bench.latency")
    Uni<Void> handle(byte[] body) {
        recorder.handled(body);
        return Uni.createFrom().voidItem();
    }
}
