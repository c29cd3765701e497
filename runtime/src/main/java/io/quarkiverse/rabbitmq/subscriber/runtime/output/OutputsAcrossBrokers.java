package io.quarkiverse.rabbitmq.subscriber.runtime.output;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;

import io.quarkiverse.rabbitmq.subscriber.runtime.observe.HeaderTables;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Unsettled;
import io.vertx.core.Context;

/**
 * A subscription's settlements when its handler may send to another broker ({@code OutgoingMessage.broker}): the
 * outputs for its own broker go on its own outputs' channel as before; each one for another broker is published there,
 * confirmed, by that broker's publisher. The delivery is acked only once every one of them, on every broker, is
 * confirmed. An output the other broker could not take because its connection or channel was cut is no failure of the
 * handler: the delivery goes back to its queue after a pause, as for a cut of its own outputs' channel (an output that
 * did arrive is sent again, none is lost); a nack, a return or a timeout there is a failure of the handler, as here.
 */
public final class OutputsAcrossBrokers implements Settlements {

    /** Publishes one message, confirmed, on a broker by name. */
    @FunctionalInterface
    public interface OtherBroker {
        CompletableFuture<Void> publishConfirmed(String broker, String exchange, String routingKey, boolean mandatory,
                AMQP.BasicProperties properties, byte[] body);
    }

    private final Settlements own;
    /** The subscription's broker. */
    private final String broker;
    private final OtherBroker others;
    /** The subscriber's event loop, where the answer is acted on. */
    private final Context eventLoop;

    public OutputsAcrossBrokers(Settlements own, String broker, OtherBroker others, Context eventLoop) {
        this.own = own;
        this.broker = broker;
        this.others = others;
        this.eventLoop = eventLoop;
    }

    @Override
    public CompletionStage<PublishAnswer> publishOutputs(Unsettled delivery, List<Output> outputs) {
        List<Output> here = new ArrayList<>(outputs.size());
        List<Output> elsewhere = new ArrayList<>();
        for (Output output : outputs) {
            (output.broker().equals(broker) ? here : elsewhere).add(output);
        }
        if (elsewhere.isEmpty()) {
            return own.publishOutputs(delivery, outputs);
        }
        List<CompletableFuture<PublishAnswer>> answers = new ArrayList<>(elsewhere.size() + 1);
        if (!here.isEmpty()) {
            answers.add(own.publishOutputs(delivery, here).toCompletableFuture());
        }
        boolean traced = delivery.observation() != Observation.NONE;
        for (Output output : elsewhere) {
            AMQP.BasicProperties properties = !traced ? output.properties()
                    : HeaderTables.changed(output.properties(), delivery.observation()::propagate);
            CompletableFuture<Void> published;
            try {
                published = others.publishConfirmed(output.broker(), output.exchange(), output.routingKey(),
                        output.mandatory(), properties, output.body());
            } catch (RuntimeException e) {
                published = CompletableFuture.failedFuture(e);
            }
            answers.add(published.handle((ignored, failure) -> failure == null ? PublishAnswer.CONFIRMED
                    : answer(output, failure)));
        }
        CompletableFuture<PublishAnswer> all = new CompletableFuture<>();
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).whenComplete((ignored, failure) -> {
            PublishAnswer first = PublishAnswer.CONFIRMED;
            for (CompletableFuture<PublishAnswer> answer : answers) {
                PublishAnswer one = answer.isCompletedExceptionally()
                        ? new PublishAnswer(PublishAnswer.Kind.NACKED, "publishing the outputs failed", null)
                        : answer.join();
                if (!one.confirmed() && (first.confirmed() || worse(one, first))) {
                    first = one;
                }
            }
            PublishAnswer decided = first;
            // The stages act on the subscriber's event loop, as they do on the answers of its own channel.
            eventLoop.runOnContext(nothing -> all.complete(decided));
        });
        return all;
    }

    /** The delivery gone with its channel wins over everything; a failure of the handler over a cut. */
    private static boolean worse(PublishAnswer one, PublishAnswer than) {
        if (than.gone()) {
            return false;
        }
        return one.gone() || than.cutOnly() && !one.cutOnly();
    }

    /** What a failed publish on another broker means for the delivery. */
    private static PublishAnswer answer(Output output, Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        String why = "the output to " + output.destination() + " on broker '" + output.broker() + "' was not "
                + "confirmed: " + cause.getMessage();
        if (cause instanceof TimeoutException) {
            return new PublishAnswer(PublishAnswer.Kind.TIMED_OUT, why, null);
        }
        if (cut(cause)) {
            return new PublishAnswer(PublishAnswer.Kind.CUT, why, null);
        }
        return new PublishAnswer(PublishAnswer.Kind.NACKED, why, null);
    }

    /** A connection or channel that went away, rather than a refusal of the message. */
    private static boolean cut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof io.quarkiverse.rabbitmq.subscriber.runtime.publish.PublishCut
                    || cause instanceof ShutdownSignalException || cause instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void arrived(Unsettled delivery) {
        own.arrived(delivery);
    }

    @Override
    public boolean settle(Unsettled delivery, Settlement settlement) {
        return own.settle(delivery, settlement);
    }

    @Override
    public boolean resultsMayWait(int results) {
        return own.resultsMayWait(results);
    }

    @Override
    public void abandoned(Unsettled delivery) {
        own.abandoned(delivery);
    }

    @Override
    public void requeueAfterPause(Unsettled delivery, Runnable settled) {
        own.requeueAfterPause(delivery, settled);
    }
}
