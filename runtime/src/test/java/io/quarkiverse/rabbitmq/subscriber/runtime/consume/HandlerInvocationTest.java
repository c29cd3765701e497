package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.invoke.Invoker;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkus.runtime.RuntimeValue;

/** One call of a handler, with a fake invoker: what comes back is always a value, and the call is in the request scope. */
class HandlerInvocationTest {

    final List<Object[]> calls = new ArrayList<>();
    final List<Boolean> requestContextActive = new ArrayList<>();
    /** A request scope that only says whether a call is inside it. */
    boolean inScope;
    final RequestScope scope = (invoker, instance, arguments) -> {
        inScope = true;
        try {
            return invoker.invoke(instance, arguments);
        } finally {
            inScope = false;
        }
    };

    @Test
    void theHandlerGetsThePayloadAndTheDeliveryAndItsOutcomeComesBack() {
        InboundDelivery delivery = delivery("hello");
        Object result = invocation(SubscriberDefinition.PayloadKind.STRING, 2, 0, arguments -> Outcome.retry())
                .run(delivery);
        assertEquals(Outcome.retry().kind(), ((Outcome) result).kind());
        assertEquals("hello", calls.get(0)[1]);
        assertSame(delivery, calls.get(0)[0]);
        assertEquals(List.of(true), requestContextActive, "the handler runs in the request scope");
    }

    @Test
    void aThrowIsAValue() {
        IllegalStateException thrown = new IllegalStateException("boom");
        Object result = invocation(SubscriberDefinition.PayloadKind.STRING, 1, -1, arguments -> {
            throw thrown;
        }).run(delivery("x"));
        assertSame(thrown, assertInstanceOf(Verdict.class, result).cause());
    }

    @Test
    void anUndecodableBodyNeverReachesTheHandler() {
        Object result = invocation(SubscriberDefinition.PayloadKind.JSON_OBJECT, 1, -1, arguments -> Outcome.ack())
                .run(delivery("{not json"));
        assertEquals(Verdict.Kind.UNDECODABLE, assertInstanceOf(Verdict.class, result).kind());
        assertTrue(calls.isEmpty());
    }

    @Test
    void anAsynchronousResultComesBackAsItIs() {
        CompletableFuture<Outcome> later = new CompletableFuture<>();
        assertSame(later, invocation(SubscriberDefinition.PayloadKind.STRING, 1, -1, arguments -> later).run(delivery("x")));
    }

    interface Handler {
        Object handle(Object[] arguments) throws Exception;
    }

    private HandlerInvocation invocation(SubscriberDefinition.PayloadKind kind, int parameters, int deliveryIndex,
            Handler handler) {
        Invoker<Object, Object> invoker = (instance, arguments) -> {
            calls.add(arguments);
            requestContextActive.add(inScope);
            return handler.handle(arguments);
        };
        int payloadIndex = deliveryIndex == 0 ? 1 : 0;
        SubscriberDefinition definition = new SubscriberDefinition(SubscriptionSpec.builder("q").build(),
                "org.acme.Handlers#handle", kind, kind == SubscriberDefinition.PayloadKind.STRING ? "java.lang.String"
                        : "io.vertx.core.json.JsonObject",
                parameters, payloadIndex, deliveryIndex, -1, SubscriberDefinition.ReturnKind.OUTCOME,
                SubscriberDefinition.ExecutionModel.EVENT_LOOP, new RuntimeValue<>(invoker));
        return new HandlerInvocation(definition,
                new Codecs(new ObjectMapper(), java.util.List.of(), Long.MAX_VALUE).decoder(definition),
                scope);
    }

    private static InboundDelivery delivery(String body) {
        return new InboundDelivery("q", new Envelope(1, false, "", "q"), new AMQP.BasicProperties(),
                body.getBytes(StandardCharsets.UTF_8), "x-retry-count");
    }
}
