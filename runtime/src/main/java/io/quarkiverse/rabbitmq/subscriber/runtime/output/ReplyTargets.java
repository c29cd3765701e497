package io.quarkiverse.rabbitmq.subscriber.runtime.output;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;

/**
 * Where {@code Outputs.reply} may send a reply. A request's {@code reply-to} is the requester's word, and the reply goes
 * out with the application's permissions: a reply-to naming one of the application's own queues (a work queue, a
 * waiting queue, whose head a message without expiration would freeze, or a dead-letter queue) would have the
 * application write there for whoever sent the request, so it is refused. Where replies may go can be narrowed further
 * ({@code quarkus.rabbitmq-subscriber.replies.allowed-queues}). A direct reply-to address reaches only its requester's
 * channel and is always allowed.
 */
public final class ReplyTargets {

    /** Any queue: for handlers built without a topology (tests). */
    public static final ReplyTargets ANY = new ReplyTargets(Set.of(), List.of());

    private final Set<String> managed;
    /** Names, or prefixes ending in {@code *}; empty: any queue not {@link #managed}. */
    private final List<String> allowed;

    private ReplyTargets(Set<String> managed, List<String> allowed) {
        this.managed = managed;
        this.allowed = allowed;
    }

    /** @param allowed the configured names and prefixes; empty for any queue the application does not manage */
    public static ReplyTargets of(TopologyPlan topology, List<String> allowed) {
        Set<String> managed = new TreeSet<>();
        topology.queues.forEach(queue -> managed.add(queue.name));
        return new ReplyTargets(managed, List.copyOf(allowed));
    }

    /** Null when a reply may go to the queue {@code replyTo} names; else why it may not. */
    public String refusal(String replyTo) {
        if (replyTo.startsWith(io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel.DIRECT_REPLY_TO)) {
            return null;
        }
        if (managed.contains(replyTo)) {
            return "it is one of this application's own queues (a work, waiting or dead-letter queue), where a reply "
                    + "never goes";
        }
        if (!allowed.isEmpty() && allowed.stream().noneMatch(pattern -> matches(pattern, replyTo))) {
            return "replies may go only to " + allowed + " (quarkus.rabbitmq-subscriber.replies.allowed-queues)";
        }
        return null;
    }

    private static boolean matches(String pattern, String queue) {
        return pattern.endsWith("*") ? queue.startsWith(pattern.substring(0, pattern.length() - 1))
                : pattern.equals(queue);
    }
}
