package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.StreamOffset;

/** A subscription's offset spec as a stream is read from it. */
final class StreamOffsets {

    private StreamOffsets() {
    }

    /** @param now the runtime clock's epoch milliseconds, where an {@code ago:} spec counts back from */
    static StreamReading.Start start(StreamOffset spec, long now) {
        return switch (spec.kind()) {
            case FIRST -> new StreamReading.Start(StreamReading.Start.Kind.FIRST, 0);
            case LAST -> new StreamReading.Start(StreamReading.Start.Kind.LAST, 0);
            case NEXT -> new StreamReading.Start(StreamReading.Start.Kind.NEXT, 0);
            case OFFSET -> new StreamReading.Start(StreamReading.Start.Kind.OFFSET, spec.value());
            case TIMESTAMP, AGO -> new StreamReading.Start(StreamReading.Start.Kind.TIMESTAMP, spec.timestampAt(now));
        };
    }
}
