package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.output.Output;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Publishes a committed transaction's group of sends right after the commit, off the committing thread (a worker): in
 * order, each confirmed ({@code mandatory} as the sender asked), then deletes the group's rows. What cannot leave now
 * (a broker that is away, a destination that refuses) stays in the outbox for the relay, with one WARN; the
 * application's transaction committed all the same, and its caller has already been answered.
 */
@Singleton
public class OutboxAfterCommit {

    private static final Logger LOG = Logger.getLogger(OutboxAfterCommit.class);

    @Inject
    InboxTransactions tables;

    @Inject
    OutboxGroupPublisher publisher;

    void publish(String group, List<Output> outputs) {
        Infrastructure.getDefaultWorkerPool().execute(() -> publisher.publish(outputs).thenCompose(ignored -> tables
                .published(group)).whenComplete((ignored, failure) -> {
                    if (failure != null) {
                        Throwable cause = failure instanceof java.util.concurrent.CompletionException
                                && failure.getCause() != null ? failure.getCause() : failure;
                        LOG.warnf("%d message(s) sent in a committed transaction could not be published or removed "
                                + "from the outbox table '%s' now (%s): the outbox relay publishes what is left",
                                outputs.size(), tables.outbox().name(), cause.getMessage());
                    }
                }));
    }
}
