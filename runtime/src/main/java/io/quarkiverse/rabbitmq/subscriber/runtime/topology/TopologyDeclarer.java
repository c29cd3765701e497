package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * Makes sure the queues the subscriptions use exist before any consumer starts: the work queues (durable, with the
 * arguments their subscription implies) and their dead-letter queues. It declares them, or, when declaration is off,
 * checks them passively and refuses to start naming every one that is missing.
 */
public final class TopologyDeclarer {

    private static final Logger LOG = Logger.getLogger(TopologyDeclarer.class);

    private TopologyDeclarer() {
    }

    public static void declare(BrokerConnection connection, List<SubscriptionSpec> subscriptions) throws IOException {
        for (SubscriptionSpec subscription : subscriptions) {
            declareWorkQueue(connection, subscription);
            if (subscription.deadLetter != null && !exists(connection, subscription.deadLetter)) {
                // A dead-letter queue someone declared (a quorum one, with its own policy) is left as it is.
                try (BrokerChannel channel = connection.createChannel()) {
                    channel.declareQueue(subscription.deadLetter, true, false, false, java.util.Map.of());
                }
            }
            if (subscription.quorum() && subscription.maxAttempts == 0 && subscription.deliveryLimit >= 0) {
                LOG.warnf("Quorum queue '%s' is declared with x-delivery-limit %d and no dead-letter route: RabbitMQ "
                        + "discards a message once it has been returned %d times. Set maxAttempts and deadLetter on "
                        + "the @Subscriber to keep such messages", subscription.queue, subscription.deliveryLimit,
                        subscription.deliveryLimit + 1);
            }
        }
    }

    private static void declareWorkQueue(BrokerConnection connection, SubscriptionSpec subscription) throws IOException {
        // A failed declaration closes its channel, so each queue gets its own.
        try (BrokerChannel channel = connection.createChannel()) {
            channel.declareQueue(subscription.queue, true, false, false, subscription.queueArguments());
        } catch (BrokerException e) {
            if (e.replyCode() == BrokerException.PRECONDITION_FAILED) {
                throw new IllegalStateException("Queue '" + subscription.queue + "' exists with other arguments than its "
                        + "subscription needs. RabbitMQ says: " + e.replyText() + ". The subscription needs "
                        + describe(subscription) + ". A queue keeps the arguments it was declared with: delete it (or "
                        + "move its messages to a new queue) or make the @Subscriber match it.", e);
            }
            throw new IllegalStateException("Cannot declare queue '" + subscription.queue + "' with arguments "
                    + subscription.queueArguments() + ": " + e.replyText(), e);
        }
    }

    private static String describe(SubscriptionSpec subscription) {
        return subscription.queueArguments().isEmpty() ? "a classic queue with no arguments"
                : "the arguments " + subscription.queueArguments();
    }

    /** Checks passively that every queue the subscriptions use exists; names every missing one. */
    public static void checkExists(BrokerConnection connection, List<SubscriptionSpec> subscriptions)
            throws IOException {
        Set<String> missing = new LinkedHashSet<>();
        for (SubscriptionSpec subscription : subscriptions) {
            if (!exists(connection, subscription.queue)) {
                missing.add("'" + subscription.queue + "' (consumed)");
            }
            if (subscription.deadLetter != null && !exists(connection, subscription.deadLetter)) {
                missing.add("'" + subscription.deadLetter + "' (dead letters of '" + subscription.queue + "')");
            }
        }
        if (!missing.isEmpty()) {
            List<String> names = new ArrayList<>(missing);
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.declare-topology is false and "
                    + (names.size() == 1 ? "this queue does" : "these queues do") + " not exist on the broker: "
                    + String.join(", ", names) + ". Declare them, or turn declare-topology on.");
        }
    }

    private static boolean exists(BrokerConnection connection, String queue) throws IOException {
        try (BrokerChannel channel = connection.createChannel()) {
            channel.declareQueuePassive(queue);
            return true;
        } catch (BrokerException e) {
            if (e.replyCode() != BrokerException.NOT_FOUND) {
                throw e;
            }
            return false;
        }
    }
}
