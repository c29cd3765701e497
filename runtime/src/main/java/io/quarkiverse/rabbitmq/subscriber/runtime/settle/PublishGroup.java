package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The publishes made for one delivery, on their way to the broker: answered {@link PublishAnswer#CONFIRMED} once the
 * last is confirmed, or with the first nack, return, timeout, refusal or cut, once. Touched on the subscriber's event
 * loop only.
 */
final class PublishGroup {

    private final CompletableFuture<PublishAnswer> answer = new CompletableFuture<>();
    private int remaining;

    PublishGroup(int publishes) {
        this.remaining = publishes;
    }

    CompletionStage<PublishAnswer> answer() {
        return answer;
    }

    void confirmed() {
        if (--remaining == 0) {
            answer.complete(PublishAnswer.CONFIRMED);
        }
    }

    /** Anything but a confirm ends the group; later answers are ignored. */
    void failed(PublishAnswer.Kind kind, String why, String refusal) {
        answer.complete(new PublishAnswer(kind, why, refusal));
    }
}
