package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.PermissionRefusal;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitioning;

/**
 * Makes the broker hold what a {@link TopologyPlan} lists before any consumer starts: it declares the exchanges
 * (RabbitMQ's own {@code amq.*} ones are only checked: it refuses to declare them), the queues (work and waiting queues
 * with their arguments; dead-letter queues only where absent) and the bindings; or,
 * when declaration is off, checks passively that every queue and exchange exists and refuses to start naming each one
 * that is missing.
 */
public final class TopologyDeclarer {

    private static final Logger LOG = Logger.getLogger(TopologyDeclarer.class);

    private TopologyDeclarer() {
    }

    public static void declare(BrokerConnection connection, TopologyPlan plan) throws IOException {
        List<String> missing = new ArrayList<>();
        for (TopologyPlan.ExchangePlan exchange : plan.exchanges) {
            if (!exchange.builtIn()) {
                declareExchange(connection, exchange);
            } else if (!exchangeExists(connection, exchange.name)) {
                // RabbitMQ refuses to declare an amq.* exchange; one that is missing was deleted by an operator.
                missing.add(describe(plan, exchange));
            }
        }
        refuseMissing("RabbitMQ's own exchanges cannot be declared, and", missing,
                "An operator deleted it: recreate the virtual host's built-in exchanges, or bind to another exchange.");
        for (TopologyPlan.QueuePlan queue : plan.queues) {
            if (queue.role == TopologyPlan.Role.DEAD_LETTER) {
                // A dead-letter queue someone declared (a quorum one, with its own policy) is left as it is.
                if (!exists(connection, queue.name)) {
                    declareQueue(connection, queue);
                }
                continue;
            }
            declareQueue(connection, queue);
            warnOfLimitWithoutRoute(queue);
        }
        for (TopologyPlan.BindingPlan binding : plan.bindings) {
            try (BrokerChannel channel = connection.createChannel()) {
                channel.bindQueue(binding.queue, binding.exchange, binding.routingKey, binding.arguments);
            } catch (BrokerException e) {
                IllegalStateException refused = PermissionRefusal.of(e, "write permission on queue '" + binding.queue
                        + "' and the read", "exchange '" + binding.exchange + "'", "to bind them (declare-topology is on)");
                throw refused != null ? refused
                        : new IllegalStateException("Cannot declare the " + binding + ": " + e.replyText(), e);
            }
        }
    }

    private static void declareQueue(BrokerConnection connection, TopologyPlan.QueuePlan queue) throws IOException {
        // A failed declaration closes its channel, so each queue gets its own.
        try (BrokerChannel channel = connection.createChannel()) {
            channel.declareQueue(queue.name, true, false, false, queue.arguments);
        } catch (BrokerException e) {
            // A queue that dead-letters is declared with read on itself checked too (and write on its dead-letter
            // exchange); RabbitMQ 3.x does not say which it refused.
            boolean deadLetters = queue.arguments.containsKey("x-dead-letter-exchange");
            IllegalStateException refused = PermissionRefusal.of(e, deadLetters ? "configure or read" : "configure",
                    "queue " + queue.describe(), "to declare it (declare-topology is on" + (deadLetters
                            ? "; a queue that dead-letters needs configure and read on itself and write on amq.default"
                            : "")
                            + ")");
            if (refused != null) {
                throw refused;
            }
            if (e.replyCode() == BrokerException.PRECONDITION_FAILED && keepsClassicWaitingQueue(connection, queue, e)) {
                return;
            }
            if (e.replyCode() == BrokerException.PRECONDITION_FAILED) {
                String named = queue.role == TopologyPlan.Role.WORK ? "'" + queue.name + "'" : queue.describe();
                throw new IllegalStateException("Queue " + named + " exists with other arguments than its "
                        + "subscription needs. RabbitMQ says: " + e.replyText() + ". The subscription needs "
                        + (queue.arguments.isEmpty() ? "a classic queue with no arguments"
                                : "the arguments " + queue.arguments)
                        + ". A queue keeps the arguments it was declared with: delete it (or move its messages to a "
                        + "new queue) or make the @Subscriber match it.", e);
            }
            throw new IllegalStateException("Cannot declare queue " + queue.describe() + " with arguments "
                    + queue.arguments + ": " + e.replyText(), e);
        }
    }

    /**
     * A quorum work queue's waiting queue is a quorum queue now; one declared classic by an earlier version is kept
     * (redeclaring would need it deleted, with the copies waiting in it), with one WARN saying what that costs and how
     * to move on. Any other difference stays an error.
     */
    private static boolean keepsClassicWaitingQueue(BrokerConnection connection, TopologyPlan.QueuePlan queue,
            BrokerException refused) throws IOException {
        if (queue.role != TopologyPlan.Role.WAITING || !"quorum".equals(queue.arguments.get("x-queue-type"))) {
            return false;
        }
        // RabbitMQ names the first argument that differs, in an order of its own: whether it is the classic waiting
        // queue of before shows by declaring that one, which changes nothing where it is.
        java.util.Map<String, Object> classic = new java.util.LinkedHashMap<>(queue.arguments);
        classic.keySet().removeAll(List.of("x-queue-type", "x-dead-letter-strategy", "x-overflow"));
        try (BrokerChannel channel = connection.createChannel()) {
            channel.declareQueue(queue.name, true, false, false, classic);
        } catch (BrokerException e) {
            return false;
        }
        LOG.warnf("Waiting queue %s exists as a classic queue: it is kept, but its hop back to queue '%s' is made at "
                + "most once, so a delayed retry that expires while '%s' has no leader (a node down, a cluster "
                + "restart) is lost. To have it declared as a quorum queue that dead-letters at least once, delete it "
                + "while it is empty (rabbitmqctl delete_queue %s --if-empty) and restart", queue.describe(), queue.owner,
                queue.owner, queue.name);
        return true;
    }

    private static void declareExchange(BrokerConnection connection, TopologyPlan.ExchangePlan exchange)
            throws IOException {
        try (BrokerChannel channel = connection.createChannel()) {
            channel.declareExchange(exchange.name, exchange.type, true, false, exchange.arguments);
        } catch (BrokerException e) {
            IllegalStateException refused = PermissionRefusal.of(e, "configure", exchange.toString(),
                    "to declare it (declare-topology is on)");
            if (refused != null) {
                throw refused;
            }
            if (TopologyPlan.DELAYED_EXCHANGE_TYPE.equals(exchange.type)
                    && (e.replyCode() == BrokerException.COMMAND_INVALID || e.replyText().contains(exchange.type))) {
                throw new IllegalStateException("Cannot declare the delayed-message exchange '" + exchange.name
                        + "': RabbitMQ does not know the exchange type 'x-delayed-message' (it says: " + e.replyText()
                        + "). The rabbitmq_delayed_message_exchange plugin is not enabled on this broker: enable it "
                        + "(rabbitmq-plugins enable rabbitmq_delayed_message_exchange) or use delay = DLX_TTL or "
                        + "DLX_TTL_PER_DELAY, which need no plugin.", e);
            }
            if (Partitioning.EXCHANGE_TYPE.equals(exchange.type)
                    && (e.replyCode() == BrokerException.COMMAND_INVALID || e.replyText().contains(exchange.type))) {
                throw new IllegalStateException("Cannot declare the consistent-hash exchange '" + exchange.name
                        + "' of the partitions of '" + exchange.name + "': RabbitMQ does not know the exchange type '"
                        + Partitioning.EXCHANGE_TYPE + "' (it says: " + e.replyText() + "). The "
                        + "rabbitmq_consistent_hash_exchange plugin, which ships with RabbitMQ, is not enabled on this "
                        + "broker: enable it (rabbitmq-plugins enable rabbitmq_consistent_hash_exchange)", e);
            }
            throw new IllegalStateException("Cannot declare " + exchange + ": " + e.replyText(), e);
        }
    }

    private static void warnOfLimitWithoutRoute(TopologyPlan.QueuePlan queue) {
        Object limit = queue.arguments.get("x-delivery-limit");
        if (queue.role == TopologyPlan.Role.WORK && limit != null
                && !queue.arguments.containsKey("x-dead-letter-routing-key")) {
            int deliveryLimit = ((Number) limit).intValue();
            LOG.warnf("Quorum queue '%s' is declared with x-delivery-limit %d and no dead-letter route: RabbitMQ "
                    + "discards a message once it has been returned %d times. Set maxAttempts and deadLetter on "
                    + "the @Subscriber to keep such messages", queue.name, deliveryLimit, deliveryLimit + 1);
        }
    }

    /**
     * Checks passively that every queue and exchange of the plan exists; names every missing one. (AMQP cannot check
     * a binding passively: an operator who declares the exchanges binds the queues to them too.)
     */
    public static void checkExists(BrokerConnection connection, TopologyPlan plan) throws IOException {
        List<String> missing = new ArrayList<>();
        for (TopologyPlan.QueuePlan queue : plan.queues) {
            if (!exists(connection, queue.name)) {
                missing.add("queue " + queue.describe());
            }
        }
        for (TopologyPlan.ExchangePlan exchange : plan.exchanges) {
            if (!exchangeExists(connection, exchange.name)) {
                missing.add(describe(plan, exchange));
            }
        }
        refuseMissing("quarkus.rabbitmq-subscriber.declare-topology is false and", missing,
                "Declare them, or turn declare-topology on.");
    }

    /**
     * @param why the start of the sentence: "declare-topology is false and"
     * @param fix what to do about it
     */
    private static void refuseMissing(String why, List<String> missing, String fix) {
        if (!missing.isEmpty()) {
            throw new IllegalStateException(why + (missing.size() == 1 ? " this does" : " these do")
                    + " not exist on the broker: " + String.join(", ", missing) + ". " + fix);
        }
    }

    /** An exchange, with what needs it: delayed retries, or the queues bound to it. */
    private static String describe(TopologyPlan plan, TopologyPlan.ExchangePlan exchange) {
        if (TopologyPlan.DELAYED_EXCHANGE_TYPE.equals(exchange.type)) {
            return "exchange '" + exchange.name + "' (" + exchange.type + ", for delayed retries)";
        }
        if (Partitioning.EXCHANGE_TYPE.equals(exchange.type)) {
            return "exchange '" + exchange.name + "' (" + exchange.type + " " + exchange.arguments
                    + ", routing to the partition queues " + exchange.name + ".0 and on)";
        }
        List<String> queues = plan.bindings.stream().filter(binding -> binding.exchange.equals(exchange.name))
                .map(binding -> binding.queue).distinct().map(queue -> "'" + queue + "'").toList();
        return "exchange '" + exchange.name + "' (" + exchange.type + ", bound to queue " + String.join(", ", queues)
                + ")";
    }

    private static boolean exists(BrokerConnection connection, String queue) throws IOException {
        return answers(connection, "queue '" + queue + "'", channel -> channel.declareQueuePassive(queue));
    }

    private static boolean exchangeExists(BrokerConnection connection, String exchange) throws IOException {
        return answers(connection, "exchange '" + exchange + "'", channel -> channel.declareExchangePassive(exchange));
    }

    /**
     * Runs a passive declaration on a channel of its own (a refusal closes it): false when the broker says 404. RabbitMQ
     * 4.3 refuses a passive declaration to a user without configure permission on the name (3.10 and 4.0 answer it):
     * with the least privilege the application cannot check, so it says so and goes on as if it exists (a copy to a
     * missing queue is returned and logged, a consumer of one refused with its name).
     */
    private static boolean answers(BrokerConnection connection, String what, PassiveCheck check) throws IOException {
        try (BrokerChannel channel = connection.createChannel()) {
            check.run(channel);
            return true;
        } catch (BrokerException e) {
            if (e.replyCode() == BrokerException.ACCESS_REFUSED) {
                LOG.warnf("Cannot check that %s exists: RabbitMQ refuses the passive declaration (%s), as RabbitMQ 4.3 "
                        + "does without configure permission on it. Going on as if it exists", what, e.replyText());
                return true;
            }
            if (e.replyCode() != BrokerException.NOT_FOUND) {
                throw e;
            }
            if (outOfReach(e)) {
                // It exists, on a node that is down: a classic queue lives on one node. A subscription whose own queue
                // is elsewhere (a quorum queue, its classic dead-letter queue on the stopped node) consumes on: a copy
                // sent there meanwhile is refused (3.x returns it, 4.x nacks it), and the delivery it settles waits in
                // the work queue (the soak run found a quorum subscription idle while its dead-letter queue's node was
                // away).
                LOG.warnf("%s exists but is out of reach: %s. Going on; what is sent to it is refused (and waits where "
                        + "it came from) until that node is back", capitalized(what), e.replyText());
                return true;
            }
            return false;
        }
    }

    /**
     * RabbitMQ's answers for a durable classic queue that exists and cannot be reached: its home node down (3.x: "home
     * node ... is down or inaccessible"; 4.x: "... process is stopped by supervisor"), or its process crashed.
     */
    private static boolean outOfReach(BrokerException e) {
        String text = e.replyText();
        return text != null && (text.contains("is down or inaccessible") || text.contains("process is stopped by "
                + "supervisor") || text.contains("has crashed and failed to restart"));
    }

    private static String capitalized(String what) {
        return Character.toUpperCase(what.charAt(0)) + what.substring(1);
    }

    private interface PassiveCheck {
        void run(BrokerChannel channel) throws IOException;
    }
}
