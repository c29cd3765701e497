package org.acme.soak;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * The soak run's traffic, one subscription of each kind: a capped classic queue whose retries wait in a
 * waiting queue (DLX_TTL) and which sends an output per message, a capped quorum queue, a batch, ordered partitions,
 * an inbox subscription, and requests answered with a reply. Retries wait in RabbitMQ ({@code DLX_TTL}), never in the
 * process, which the run kills. A body starting with "poison" always fails: capped, it is
 * dead-lettered. Every 50th message is retried a second later once. Each handler call is a row of the journal.
 */
@ApplicationScoped
public class Handlers {

    @Inject
    Journal journal;

    @Subscriber(value = "soak.classic", maxAttempts = 3, deadLetter = "soak.classic.dead", delay = Delay.DLX_TTL)
    Outcome classic(String body, Delivery delivery, Outputs outputs) {
        Outcome outcome = outcome(body, delivery);
        if (outcome == null) {
            journal.handled("soak.classic", delivery.messageId(), delivery, null);
            outputs.send(OutgoingMessage.toQueue("soak.outputs").payload(body).messageId(delivery.messageId() + "/out")
                    .header("soak-published-at", delivery.headers().get("soak-published-at")));
            return Outcome.ack();
        }
        return outcome;
    }

    @Subscriber("soak.outputs")
    void output(String body, Delivery delivery) {
        journal.handled("soak.outputs", delivery.messageId(), delivery, null);
    }

    // DLX_TTL: a retry waits in RabbitMQ, so a kill -9 loses none (IN_SERVICE, the default, holds it in the process).
    @Subscriber(value = "soak.quorum", type = QueueType.QUORUM, maxAttempts = 3, deadLetter = "soak.quorum.dead",
            delay = Delay.DLX_TTL)
    Outcome quorum(String body, Delivery delivery) {
        Outcome outcome = outcome(body, delivery);
        if (outcome == null) {
            journal.handled("soak.quorum", delivery.messageId(), delivery, null);
            return Outcome.ack();
        }
        return outcome;
    }

    @Subscriber(value = "soak.batch", batch = @Batch(size = 50, maxWait = "200ms"))
    void batch(List<String> bodies, List<Delivery> deliveries) {
        for (Delivery delivery : deliveries) {
            journal.handled("soak.batch", delivery.messageId(), delivery, null);
        }
    }

    /** Ordered per key: the report checks from the journal that each key's numbers were handled in order. */
    @Subscriber(value = "soak.ordered", partitions = 4, partitionKey = "header:soak-key")
    void ordered(String body, Delivery delivery) {
        journal.handled("soak.ordered", delivery.messageId(), delivery, String.valueOf(delivery.headers().get("soak-key")));
    }

    /** Its journal row is written in the inbox's transaction: a copy handled before is acked without a row. */
    @Subscriber(value = "soak.inbox", inbox = true)
    void inbox(String body, Delivery delivery) {
        journal.handled("soak.inbox", delivery.messageId(), delivery, null);
    }

    @Subscriber("soak.requests")
    void request(String body, Delivery delivery, Outputs outputs) {
        journal.handled("soak.requests", delivery.messageId(), delivery, null);
        outputs.reply("answer to " + body);
    }

    /** Null to go on; else what the handler answers: poison fails for good, every 50th is retried once later. */
    private static Outcome outcome(String body, Delivery delivery) {
        if (body.startsWith("poison")) {
            throw new IllegalStateException("poison message");
        }
        if (body.hashCode() % 50 == 0 && delivery.attempt() == 1) {
            return Outcome.retryAfter(Duration.ofSeconds(1));
        }
        return null;
    }
}
