package org.acme.peer;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

/**
 * The latency benchmark's {@code @RabbitListener} (bench/latency.sh, -Dbench.latency=true): the same record as the
 * extension's handlers keep ({@link LatencyRecord}, one source for both peers), printed once done.
 */
@Component
public class SpringLatency {

    private final LatencyRecord record = new LatencyRecord();

    @RabbitListener(queues = "bench.latency", autoStartup = "${bench.latency:false}")
    public void handle(byte[] body) {
        record.handled(body).forEach(System.out::println);
    }
}
