package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyDelay;

/**
 * {@code PLUGIN}: the copy goes through the delayed-message exchange with an {@code x-delay} header; the plugin keeps
 * it and routes it to the work queue (bound under its own name) when it is due, in order of due time.
 * <p>
 * Not {@code mandatory}: the plugin routes a message only once it is due, so it cannot say at publish time whether a
 * queue will take it (it returns every mandatory message it holds). The binding is declared with the work queue.
 */
final class DelayedExchangeDelay implements CopyDelay {

    /** The header the plugin reads the delay from, in milliseconds. */
    static final String DELAY_HEADER = "x-delay";

    private final String exchange;
    private final String workQueue;

    DelayedExchangeDelay(String exchange, String workQueue) {
        this.exchange = exchange;
        this.workQueue = workQueue;
    }

    @Override
    public Placement place(AMQP.BasicProperties copy, Duration delay) {
        Map<String, Object> headers = copy.getHeaders() == null ? new HashMap<>() : new HashMap<>(copy.getHeaders());
        // The plugin reads a signed 32-bit delay; longer ones it would not hold.
        headers.put(DELAY_HEADER, (int) Math.min(Integer.MAX_VALUE, DelayStrategies.millis(delay)));
        return new Publish(exchange, workQueue, false, copy.builder().headers(headers).build());
    }
}
