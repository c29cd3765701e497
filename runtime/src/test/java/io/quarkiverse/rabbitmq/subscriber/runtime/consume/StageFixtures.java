package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.invoke.Invoker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Unsettled;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkus.runtime.RuntimeValue;

/** What the stages' unit tests share: deliveries, definitions, and a settlement side that records what it is asked. */
public final class StageFixtures {

    private StageFixtures() {
    }

    /** Runs on the event loop and waits for it, as the stages are only ever used there. */
    public static void onLoop(io.vertx.core.Context loop, Runnable work) throws Exception {
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        loop.runOnContext(ignored -> {
            work.run();
            done.complete(null);
        });
        done.get(5, java.util.concurrent.TimeUnit.SECONDS);
    }

    public static InboundDelivery delivery(long tag) {
        return new InboundDelivery("q", new Envelope(tag, false, "", "q"), new AMQP.BasicProperties(),
                ("m" + tag).getBytes(StandardCharsets.UTF_8), "x-retry-count");
    }

    public static SubscriberDefinition definition(SubscriptionSpec subscription, SubscriberDefinition.ExecutionModel model,
            int outputsIndex, Invoker<Object, Object> invoker) {
        return new SubscriberDefinition(subscription, "org.acme.Handlers#handle",
                SubscriberDefinition.PayloadKind.STRING, "java.lang.String", outputsIndex >= 0 ? 2 : 1, 0, -1,
                outputsIndex, SubscriberDefinition.ReturnKind.OUTCOME, model, new RuntimeValue<>(invoker));
    }

    /** Records every call as "what:tag" (settlements as "settle:tag:settlement"); settles each delivery once. */
    public static final class RecordingSettlements implements Settlements {

        public final List<String> calls = new CopyOnWriteArrayList<>();
        /** The outputs' answer, held until the test gives it. */
        public volatile java.util.concurrent.CompletableFuture<PublishAnswer> outputsAnswer;

        @Override
        public void arrived(Unsettled delivery) {
            calls.add("arrived:" + delivery.deliveryTag());
        }

        @Override
        public boolean settle(Unsettled delivery, Settlement settlement) {
            if (!delivery.markSettled()) {
                calls.add("settled again:" + delivery.deliveryTag());
                return false;
            }
            calls.add("settle:" + delivery.deliveryTag() + ":" + name(settlement));
            return true;
        }

        @Override
        public java.util.concurrent.CompletionStage<PublishAnswer> publishOutputs(Unsettled delivery,
                List<Output> outputs) {
            calls.add("publish outputs:" + delivery.deliveryTag() + ":" + outputs.size());
            outputsAnswer = new java.util.concurrent.CompletableFuture<>();
            return outputsAnswer;
        }

        @Override
        public void abandoned(Unsettled delivery) {
            delivery.markSettled();
            calls.add("abandoned:" + delivery.deliveryTag());
        }

        @Override
        public void requeueAfterPause(Unsettled delivery, Runnable settled) {
            calls.add("requeue after pause:" + delivery.deliveryTag());
            delivery.markSettled();
            settled.run();
        }

        static String name(Settlement settlement) {
            if (settlement instanceof Settlement.Republish republish) {
                return republish.target().name().toLowerCase();
            }
            if (settlement instanceof Settlement.Reject reject) {
                return reject.requeue() ? "requeue" : "reject";
            }
            return settlement instanceof Settlement.Keep ? "keep" : "ack";
        }
    }
}
