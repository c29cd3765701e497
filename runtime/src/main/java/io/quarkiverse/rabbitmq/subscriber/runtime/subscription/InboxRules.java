package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Delay;

/**
 * What {@code inbox = true} needs, checked at build time: the application has a JDBC datasource (quarkus-agroal and a
 * driver) and JTA (quarkus-narayana-jta), the inbox datasource is configured, and each inbox handler runs where a
 * JDBC transaction may block, settles in the transaction's time and never leaves a promise of the inbox to memory.
 */
public final class InboxRules {

    /** The name of the default datasource in {@code quarkus.rabbitmq-subscriber.inbox.datasource}. */
    public static final String DEFAULT_DATASOURCE = "<default>";

    private InboxRules() {
    }

    /**
     * What the application lacks for its inbox subscriptions; empty when it has none.
     *
     * @param methods the methods of the inbox subscriptions, for the message
     * @param outboxEnabled whether {@code quarkus.rabbitmq-subscriber.outbox.enabled} is on (sends inside the
     *        application's transactions go to the outbox, which needs the same)
     * @param datasources the names of the JDBC datasources configured ({@link #DEFAULT_DATASOURCE} for the default)
     */
    public static List<String> applicationProblems(List<String> methods, boolean outboxEnabled, boolean agroal,
            boolean jta, String datasource, Collection<String> datasources) {
        List<String> problems = new ArrayList<>();
        if (methods.isEmpty() && !outboxEnabled) {
            return problems;
        }
        String who = methods.isEmpty() ? ""
                : methods.size() == 1 ? methods.get(0) + " has inbox = true"
                        : String.join(", ", methods) + " have inbox = true";
        if (outboxEnabled) {
            who = (who.isEmpty() ? "" : who + ", and ") + "quarkus.rabbitmq-subscriber.outbox.enabled is true";
        }
        if (!agroal) {
            problems.add(who + ": the inbox is a table in the application's database, and the application has no "
                    + "JDBC datasource. Add quarkus-agroal and a JDBC driver (quarkus-jdbc-postgresql) and configure "
                    + "quarkus.datasource.*");
        } else if (!jta) {
            problems.add(who + ": the inbox and the outbox are written in JTA transactions, and the application has no "
                    + "transaction manager. Add quarkus-narayana-jta");
        } else if (!datasources.contains(datasource)) {
            problems.add(who + ": the inbox datasource "
                    + (DEFAULT_DATASOURCE.equals(datasource) ? "(the default one)" : "'" + datasource + "'")
                    + " is not configured (quarkus.rabbitmq-subscriber.inbox.datasource). Configure it with "
                    + (DEFAULT_DATASOURCE.equals(datasource) ? "quarkus.datasource.db-kind and jdbc.url"
                            : "quarkus.datasource.\"" + datasource + "\".db-kind and jdbc.url")
                    + (datasources.isEmpty() ? "" : ", or name one of " + datasources.stream().sorted().toList()));
        }
        return problems;
    }

    /**
     * What makes one inbox subscription unusable.
     *
     * @param returnsOutcome the handler returns an {@code Outcome} (so it may ask for a {@code retryAfter})
     * @param asynchronous the handler returns a {@code Uni} or {@code CompletionStage}
     * @param batch the handler takes a batch ({@code @Batch}): its outcome is a {@code BatchOutcome}
     */
    public static List<String> problems(String method, SubscriptionSpec subscription,
            SubscriberDefinition.ExecutionModel model, boolean returnsOutcome, boolean asynchronous, boolean batch) {
        List<String> problems = new ArrayList<>();
        if (!subscription.inbox) {
            return problems;
        }
        if (model == SubscriberDefinition.ExecutionModel.EVENT_LOOP) {
            problems.add(method + " has inbox = true but runs on the event loop, where a JDBC transaction must not "
                    + "block: return Outcome or void (a worker thread), or add @RunOnVirtualThread");
        } else if (asynchronous) {
            problems.add(method + " has inbox = true but returns a Uni or CompletionStage: its transaction commits when "
                    + "the method returns, before an asynchronous result completes. Return Outcome or void");
        }
        boolean waitsInService = returnsOutcome || subscription.backoff().waits();
        if (subscription.delay == Delay.IN_SERVICE && waitsInService && subscription.retryDelayMinMillis == 0) {
            problems.add(method + " has inbox = true and delay = IN_SERVICE" + (returnsOutcome
                    ? " and returns " + (batch ? "BatchOutcome" : "Outcome") + " (so it may retryAfter)"
                    : " and a @Backoff")
                    + ": an in-service delay acks the message and holds its copy in memory, so a crash loses it and "
                    + "the effects the inbox promises. Use delay = DLX_TTL or DLX_TTL_PER_DELAY (the copy waits in "
                    + "RabbitMQ), or on a quorum queue a retryDelay");
        }
        return problems;
    }
}
