package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.io.IOException;
import java.time.Duration;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;
import io.vertx.core.Context;

/**
 * A fire-and-forget copy ({@code DEFAULT} on the delivery's channel) that RabbitMQ returned: its original was acked
 * already, so nothing else would bring the message back. A dead letter or a copy for a waiting queue goes back to the
 * work queue instead, after a pause (held in the service meanwhile, like a retryAfter copy), without the expiration it
 * had for the waiting queue; a copy to the work queue itself means that queue is gone, and the message with it.
 */
final class ReturnedAfterAck {

    private static final Logger LOG = Logger.getLogger(CopyPublisher.class);

    private final BrokerChannel channel;
    private final String workQueue;
    private final Context eventLoop;
    private final Clock clock;
    private final Duration pause;
    private final MissingQueues missing;

    ReturnedAfterAck(BrokerChannel channel, String workQueue, Context eventLoop, Clock clock, Duration pause,
            MissingQueues missing) {
        this.channel = channel;
        this.workQueue = workQueue;
        this.eventLoop = eventLoop;
        this.clock = clock;
        this.pause = pause;
        this.missing = missing;
    }

    /** On the subscriber's event loop. */
    void returned(String replyText, String routingKey, AMQP.BasicProperties properties, byte[] body) {
        if (routingKey.equals(workQueue)) {
            LOG.errorf("RabbitMQ could not route a copy of message-id %s to queue '%s' (%s) and it could not go back to "
                    + "queue '%s': it is lost. Use retryPublish = CONFIRMED to requeue originals instead",
                    LogText.of(properties.getMessageId()), routingKey, replyText, workQueue);
            return;
        }
        missing.log(routingKey, "the message goes back to queue '" + workQueue + "' in " + pause);
        AMQP.BasicProperties back = properties.builder().expiration(null).build();
        clock.schedule(pause, () -> eventLoop.runOnContext(ignored -> {
            try {
                synchronized (channel) {
                    channel.publish("", workQueue, true, back, body);
                }
            } catch (IOException | RuntimeException e) {
                LOG.errorf("Could not publish message-id %s back to queue '%s' after queue '%s' refused it (%s): "
                        + "it is lost", LogText.of(properties.getMessageId()), workQueue, routingKey, e);
            }
        }));
    }
}
