package org.acme.refunds.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.acme.refunds.Refund;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.common.annotation.Blocking;

/**
 * The inbox's cost benchmark (bench/inbox-cost.sh), built only for it: four subscribers that each insert one row, in
 * the same run, round after round: with the inbox ({@code inbox = true}) against the same handler in its own
 * {@code @Transactional} without it; and with the inbox and one output through the outbox against the same handler
 * publishing that output as plain {@code Outputs} (confirmed before the ack). Each drain fills its queue while its
 * subscriber is paused, then times the drain from the resume to the last message handled.
 */
@IfBuildProperty(name = "bench.drain", stringValue = "inbox-cost")
@Path("/bench/inbox-cost")
public class InboxCost {

    static final List<String> QUEUES = List.of("bench.tx", "bench.inbox", "bench.outputs", "bench.outbox");

    private static final Map<String, AtomicInteger> HANDLED = new ConcurrentHashMap<>();

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RabbitPublisher publisher;

    @Inject
    Subscriptions subscriptions;

    @Subscriber("bench.tx")
    @Transactional
    void transactional(Refund refund) throws SQLException {
        insert(refund);
        handled("bench.tx");
    }

    // The pool's size, as the @Transactional handlers run (bound by the pool alone): without it, each of the app's four
    // inbox subscriptions would run its share of the pool, a quarter of that.
    @Subscriber(value = "bench.inbox", inbox = true, concurrency = 20)
    void inbox(Refund refund) throws SQLException {
        insert(refund);
        handled("bench.inbox");
    }

    @Subscriber("bench.outputs")
    @Transactional
    void outputs(Refund refund, Outputs outputs) throws SQLException {
        insert(refund);
        outputs.send("bench.sink", refund);
        handled("bench.outputs");
    }

    @Subscriber(value = "bench.outbox", inbox = true, concurrency = 20)
    void outbox(Refund refund, Outputs outputs) throws SQLException {
        insert(refund);
        outputs.send("bench.sink", refund);
        handled("bench.outbox");
    }

    @Subscriber("bench.sink")
    void sink(byte[] body) {
    }

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @Blocking
    public String run(@QueryParam("messages") int messages, @QueryParam("rounds") int rounds) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, refund_id bigint)");
        }
        Map<String, List<Double>> perMessage = new LinkedHashMap<>();
        QUEUES.forEach(queue -> perMessage.put(queue, new ArrayList<>()));
        List<Double> inboxRatios = new ArrayList<>();
        List<Double> outboxRatios = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        for (int round = 0; round <= rounds; round++) {
            Map<String, Double> micros = new LinkedHashMap<>();
            for (String queue : QUEUES) {
                micros.put(queue, drain(queue, messages));
            }
            if (round == 0) {
                // The JIT's round: not counted.
                continue;
            }
            micros.forEach((queue, value) -> perMessage.get(queue).add(value));
            inboxRatios.add(micros.get("bench.inbox") / micros.get("bench.tx"));
            outboxRatios.add(micros.get("bench.outbox") / micros.get("bench.outputs"));
            out.append(String.format("round %d: %s%n", round, micros));
        }
        perMessage.forEach((queue, values) -> out.append(String.format("%-14s median %.0f us per message%n", queue,
                median(values))));
        out.append(String.format("inbox / own @Transactional: median %.2fx (rounds %s; target <= 1.3x)%n",
                median(inboxRatios), inboxRatios));
        out.append(String.format("outbox / plain Outputs:     median %.2fx (rounds %s)%n", median(outboxRatios),
                outboxRatios));
        return out.toString();
    }

    private double drain(String queue, int messages) throws Exception {
        return PausedDrain.micros(subscriptions, publisher, queue, messages,
                HANDLED.computeIfAbsent(queue, ignored -> new AtomicInteger()));
    }

    private static double median(List<Double> values) {
        return PausedDrain.median(values);
    }

    private void handled(String queue) {
        HANDLED.computeIfAbsent(queue, ignored -> new AtomicInteger()).incrementAndGet();
    }

    private void insert(Refund refund) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO bench_rows (refund_id) VALUES (?)")) {
            insert.setLong(1, refund.id());
            insert.executeUpdate();
        }
    }
}
