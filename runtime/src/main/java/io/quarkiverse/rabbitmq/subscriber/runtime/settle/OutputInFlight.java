package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

/**
 * One of a delivery's outputs: its group acks the delivery once the last is confirmed; anything else the broker says
 * of one fails the delivery, once, naming the output's destination.
 */
final class OutputInFlight implements InFlightPublish {

    private final OutputGroup group;
    private final String destination;
    /** Whether the outputs went on a channel of their own (then the delivery is still the subscriber's when it closes). */
    private final boolean ownChannel;

    OutputInFlight(OutputGroup group, String destination, boolean ownChannel) {
        this.group = group;
        this.destination = destination;
        this.ownChannel = ownChannel;
    }

    @Override
    public void confirmed() {
        group.confirmed();
    }

    @Override
    public void nacked() {
        group.failed("RabbitMQ nacked the output to " + destination);
    }

    @Override
    public void returned(String replyText) {
        group.failed("RabbitMQ returned the output to " + destination + " (" + replyText + "): no queue took it");
    }

    @Override
    public void timedOut(long timeoutMillis) {
        group.failed("RabbitMQ did not confirm the output to " + destination + " within " + timeoutMillis + " ms");
    }

    @Override
    public void closed(boolean refusedForWhatItIs, String reason) {
        if (refusedForWhatItIs && ownChannel) {
            // The handler's output, as it built it, would be refused again: a failed handling (an attempt).
            group.failed("RabbitMQ refused the output to " + destination + " (" + reason + ")");
        } else if (ownChannel) {
            // A cut is no failure of the handler: the delivery goes back to its queue, its outputs may have arrived.
            group.requeue("the outputs' channel closed before RabbitMQ confirmed the output to " + destination);
        } else {
            group.abandoned();
        }
    }
}
