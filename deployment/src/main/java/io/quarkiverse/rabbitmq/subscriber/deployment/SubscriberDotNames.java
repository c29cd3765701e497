package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jboss.jandex.DotName;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

final class SubscriberDotNames {

    static final DotName SUBSCRIBER = DotName.createSimple(Subscriber.class);
    static final DotName OBJECT = DotName.createSimple(Object.class);
    static final DotName OUTCOME = DotName.createSimple(Outcome.class);
    static final DotName BATCH_OUTCOME = DotName.createSimple(io.quarkiverse.rabbitmq.subscriber.BatchOutcome.class);
    static final DotName LIST = DotName.createSimple(java.util.List.class);
    static final DotName DELIVERY = DotName.createSimple(Delivery.class);
    static final DotName OUTPUTS = DotName.createSimple(io.quarkiverse.rabbitmq.subscriber.Outputs.class);
    static final DotName UNI = DotName.createSimple(Uni.class);
    static final DotName COMPLETION_STAGE = DotName.createSimple(CompletionStage.class);
    static final DotName COMPLETABLE_FUTURE = DotName.createSimple(CompletableFuture.class);
    static final DotName VOID = DotName.createSimple(Void.class);
    static final DotName STRING = DotName.createSimple(String.class);
    static final DotName BUFFER = DotName.createSimple(Buffer.class);
    static final DotName JSON_OBJECT = DotName.createSimple(JsonObject.class);
    static final DotName JSON_ARRAY = DotName.createSimple(JsonArray.class);
    static final DotName BLOCKING = DotName.createSimple(Blocking.class);
    static final DotName NON_BLOCKING = DotName.createSimple(NonBlocking.class);
    static final DotName RUN_ON_VIRTUAL_THREAD = DotName.createSimple(RunOnVirtualThread.class);

    private SubscriberDotNames() {
    }
}
