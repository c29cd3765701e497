package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

/**
 * Something that watches the subscribers work: metrics (when Micrometer is present) and tracing (when OpenTelemetry
 * is). The deployment registers an observer bean only where its library is present and its switch is on; the engine
 * combines them in {@link Observers}, and with none the hooks cost a field read.
 */
public interface Observer {

    /**
     * A delivery is about to reach its handler: called on the thread the handler runs on, before the payload is
     * decoded.
     */
    Observation processing(String queue, AMQP.BasicProperties properties, int bodySize);

    /**
     * A batch is about to reach its handler (on the thread it runs on, before the payloads are decoded): the batch's
     * own observation (a tracing span linked to each item's context, the batch size); settled once its handler's result
     * is known. Its items are observed by {@link #batchItem}. None by default.
     *
     * @param items each item's properties, in the batch's order
     */
    default Observation processingBatch(String queue, List<AMQP.BasicProperties> items) {
        return Observation.NONE;
    }

    /**
     * An item of a batch observed by {@code batch} (this observer's observation of it): settled as a single delivery is.
     * By default observed as a single delivery ({@link #processing}); a tracer gives items no span of their own.
     */
    default Observation batchItem(String queue, AMQP.BasicProperties properties, int bodySize, Observation batch) {
        return processing(queue, properties, bodySize);
    }

    /**
     * A message is about to be published (by {@code RabbitPublisher}, or a copy or dead letter of the runtime's own).
     * {@code headers} is the message's header table, still mutable: a tracer reads the context a copy carries from it
     * and writes its own there; null when there is none.
     */
    PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers);

    /** A settlement frame (ack, reject) was written for a delivery of {@code queue}, taking {@code nanos}. */
    void settled(String queue, String operation, long nanos);

    /** Once, when the subscribers start: the live figures an observer may show as gauges. */
    default void watch(LiveFigures figures) {
    }
}
