package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import io.quarkiverse.rabbitmq.subscriber.Outcome;

/** What came of giving a delivery to its handler. */
public sealed interface HandlerResult {

    /** The handler returned an outcome ({@code void} and {@code Uni<Void>} handlers: ack). */
    record Handled(Outcome outcome) implements HandlerResult {
    }

    /** The handler threw, its {@code Uni}/{@code CompletionStage} failed, or it returned a null outcome. */
    record Failed(FailureInfo failure) implements HandlerResult {
    }

    /** The body could not be decoded into the payload type: the handler never ran. */
    record Undecodable(FailureInfo failure) implements HandlerResult {
    }
}
