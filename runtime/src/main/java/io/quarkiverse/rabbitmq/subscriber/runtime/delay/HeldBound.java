package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

/**
 * How much one subscription may hold in the service for {@code IN_SERVICE} delays: a count and a number of body bytes
 * ({@code quarkus.rabbitmq-subscriber.in-service.max-held} and {@code .max-held-bytes}). Held copies are already acked,
 * so nothing but this bound keeps a backlog answered with {@code retryAfter} from moving into the heap at broker speed.
 * At the bound the subscriber stops taking deliveries; once half of it is free again, it takes them again (the gap
 * keeps it from flapping at the edge).
 */
public record HeldBound(int maxHeld, long maxHeldBytes) {

    public boolean reached(int held, long bytes) {
        return held >= maxHeld || bytes >= maxHeldBytes;
    }

    public boolean relieved(int held, long bytes) {
        return held <= maxHeld / 2 && bytes <= maxHeldBytes / 2;
    }
}
