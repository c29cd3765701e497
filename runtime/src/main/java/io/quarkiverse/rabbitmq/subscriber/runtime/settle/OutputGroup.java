package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

/**
 * The outputs of one delivery on their way to the broker: the delivery is acked once the last is confirmed, and fails
 * at the first nack, return, timeout or refusal, once. Touched on the subscriber's event loop only.
 */
final class OutputGroup {

    private final OutputsResult result;
    private int remaining;
    private boolean over;

    OutputGroup(int outputs, OutputsResult result) {
        this.remaining = outputs;
        this.result = result;
    }

    void confirmed() {
        if (!over && --remaining == 0) {
            over = true;
            result.confirmed();
        }
    }

    void failed(String why) {
        if (!over) {
            over = true;
            result.failed(why);
        }
    }

    void requeue(String why) {
        if (!over) {
            over = true;
            result.requeue(why);
        }
    }

    void abandoned() {
        if (!over) {
            over = true;
            result.abandoned();
        }
    }
}
