package org.acme.refunds.bench;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;

/**
 * The stream drain (streams.sh): the event-loop handler reading a stream from its first offset, the body as bytes, as
 * the bare stream client's drain does. Each run sets its own consumer name, so each starts from the first offset.
 */
@IfBuildProperty(name = "bench.drain", stringValue = "stream")
public class StreamDrain {

    private final DrainCounter counter = new DrainCounter();

    @Subscriber(value = "bench.stream", type = QueueType.STREAM, offset = "first")
    Uni<Void> drain(byte[] body) {
        counter.drained();
        return Uni.createFrom().voidItem();
    }
}
