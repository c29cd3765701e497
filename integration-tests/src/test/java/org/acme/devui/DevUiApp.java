package org.acme.devui;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.profile.IfBuildProfile;

/**
 * The Dev UI test's application: a busy refund waits 30 s in the waiting queue, three times at most; stock lines are
 * taken 50 at a time. Only in dev mode:
 * test classes are part of the @QuarkusTest application of this module too, which must not consume its queue.
 */
@IfBuildProfile("dev")
public class DevUiApp {

    @Subscriber(value = "devui.refunds", maxAttempts = 3, deadLetter = "devui.refunds.dead", delay = Delay.DLX_TTL, bindings = {
            @Binding(exchange = "devui.payments", keys = "refund.*"),
            @Binding(exchange = "amq.headers", type = ExchangeType.HEADERS, arguments = { "x-match=any",
                    "kind=refund" }) })
    Outcome refund(String body) {
        return Outcome.retryAfter(Duration.ofSeconds(30));
    }

    /** A batch handler: the subscriptions table shows its size and maxWait. */
    @Subscriber(value = "devui.stock", batch = @io.quarkiverse.rabbitmq.subscriber.Batch(size = 50, maxWait = "250ms"))
    void stock(java.util.List<String> lines) {
    }
}
