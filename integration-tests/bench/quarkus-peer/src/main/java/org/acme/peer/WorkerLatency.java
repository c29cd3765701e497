package org.acme.peer;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;

/** The worker handler: takes the body as bytes, records, acks. */
@IfBuildProperty(name = "bench.mode", stringValue = "worker")
public class WorkerLatency {

    private final LatencyRecorder recorder = new LatencyRecorder();

    @Subscriber("bench.latency")
    void handle(byte[] body) {
        recorder.handled(body);
    }
}
