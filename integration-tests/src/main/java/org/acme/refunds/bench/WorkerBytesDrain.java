package org.acme.refunds.bench;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;

/**
 * The worker drain with the body taken as bytes: no JSON decoding, as PerfTest does none. What separates the two
 * worker figures is the payload's decoding; what is left against PerfTest is the extension's own path.
 */
@IfBuildProperty(name = "bench.drain", stringValue = "worker-bytes")
public class WorkerBytesDrain {

    private final DrainCounter counter = new DrainCounter();

    @Subscriber("bench.drain")
    void drain(byte[] body) {
        counter.drained();
    }
}
