package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Publishes a committed transaction's group of sends right after the commit, off the committing thread (a worker): in
 * order, each confirmed ({@code mandatory} as the sender asked), then has the group's rows deleted. What cannot leave now
 * (a broker that is away, a destination that refuses) stays in the outbox for the relay, with one WARN; the
 * application's transaction committed all the same, and its caller has already been answered. The rows of what left
 * are deleted with other groups' ({@link OutboxDeletes}).
 */
@Singleton
public class OutboxAfterCommit {

    private static final Logger LOG = Logger.getLogger(OutboxAfterCommit.class);

    @Inject
    InboxTransactions tables;

    @Inject
    OutboxGroupPublisher publisher;

    void publish(String group, List<Output> outputs) {
        Infrastructure.getDefaultWorkerPool().execute(() -> publisher.publish(outputs).whenComplete((ignored, failure) -> {
            if (failure == null) {
                tables.published(group);
                return;
            }
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure;
            LOG.warnf("%d message(s) sent in a committed transaction could not be published now (%s): they wait in the "
                    + "outbox table '%s', which the outbox relay publishes", outputs.size(), cause.getMessage(),
                    tables.outbox().name());
        }));
    }
}
