package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

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
