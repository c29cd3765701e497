package org.acme.proof;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;

/**
 * The ordered-partitions proof's application: 16 quorum partitions keyed by the "key" header. Each entry handled
 * publishes "<key> <seq> <instance> <millis> <queue> <first|redelivered>" to the results queue, confirmed before its ack (Outputs). One entry in 50 asks for a
 * retry after 50 ms at its first attempt (a retry in place: nothing of its key may pass it).
 */
@Path("/partitions")
public class Ledger {

    @ConfigProperty(name = "quarkus.rabbitmq-subscriber.instance-id")
    String instance;

    @Inject
    SubscriberStatus status;

    @Subscriber(value = "proof.ledger", partitions = 16, partitionKey = "header:key", type = QueueType.QUORUM,
            maxAttempts = 5, deadLetter = "proof.ledger.dead")
    Outcome post(String entry, Delivery delivery, Outputs outputs) {
        int seq = Integer.parseInt(entry.substring(entry.indexOf(' ') + 1));
        if (seq % 50 == 7 && delivery.attempt() == 1) {
            return Outcome.retryAfter(Duration.ofMillis(50));
        }
        // When it was handled: the instances share the machine's clock, so the checker can order handlings across them.
        outputs.send("proof.results", entry + " " + instance + " " + System.currentTimeMillis() + " " + delivery.queue()
                + " " + (delivery.redelivered() ? "redelivered:" + delivery.redeliveryCount().orElse(-1) : "first"));
        return Outcome.ack();
    }

    @GET
    public Map<String, Object> partitions() {
        return Map.of("instance", instance, "active", status.activePartitions("proof.ledger"),
                "instances", status.partitionInstances("proof.ledger"));
    }
}
