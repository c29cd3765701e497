package org.acme.proof;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;

/**
 * The super streams proof's application: a super stream of 6 partitions keyed by the "key" header, read by every
 * instance under one consumer name. Each entry handled publishes "<key> <seq> <instance> <millis> <partition>
 * <first|redelivered>" to proof.results, confirmed before it is settled (Outputs), as the ordered-partitions proof's
 * application does, so one checker serves both. One entry in 50 asks for a retry after 50 ms at its first attempt (in
 * place: nothing of its partition may pass it).
 */
@Path("/")
public class Invoices {

    @ConfigProperty(name = "proof.instance", defaultValue = "instance")
    String instance;

    @Inject
    SubscriberStatus status;

    @Inject
    RabbitPublisher publisher;

    @Subscriber(value = "proof.super", type = QueueType.STREAM, partitions = 6, partitionKey = "header:key",
            offset = "first", maxAttempts = 5, deadLetter = "proof.super.dead")
    Outcome post(String entry, Delivery delivery, Outputs outputs) {
        int seq = Integer.parseInt(entry.substring(entry.indexOf(' ') + 1));
        if (seq % 50 == 7 && delivery.attempt() == 1) {
            return Outcome.retryAfter(Duration.ofMillis(50));
        }
        // The routing key of a message read from a stream is the stream it was read from: here, its partition.
        outputs.send("proof.results", entry + " " + instance + " " + System.currentTimeMillis() + " "
                + delivery.routingKey() + " first");
        return Outcome.ack();
    }

    /** Publishes entries "k<i> <seq>" over keys, through RabbitPublisher's routing by key, each confirmed. */
    @POST
    @Path("publish")
    public String publish(@QueryParam("entries") int entries, @QueryParam("keys") int keys) {
        int[] next = new int[keys];
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            String key = "k" + (i % keys);
            pending.add(publisher.sendToPartitionConfirmed("proof.super", key, key + " " + next[i % keys]++)
                    .subscribeAsCompletionStage());
            if (pending.size() == 500) {
                CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
                pending.clear();
            }
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        return "published " + entries + " over " + keys + " keys\n";
    }

    @GET
    @Path("partitions")
    public Map<String, Object> partitions() {
        return Map.of("instance", instance, "active", status.activePartitions("proof.super"));
    }
}
