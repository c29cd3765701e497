package org.acme.refunds.bench;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;

/** The latency benchmark's worker handler (bench/latency.sh): takes the body as bytes, records, acks. */
@IfBuildProperty(name = "bench.drain", stringValue = "latency-worker")
public class WorkerLatency {

    private final LatencyRecorder recorder = new LatencyRecorder();

    @Subscriber("bench.latency")
    void handle(byte[] body) {
        recorder.handled(body);
    }
}
