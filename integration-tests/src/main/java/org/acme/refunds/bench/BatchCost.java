package org.acme.refunds.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.common.annotation.Blocking;

/**
 * The batch benchmark's database half (bench/batch-cost.sh), built only for it: a subscriber that inserts one row
 * into PostgreSQL per call, in its own {@code @Transactional}, against a batch subscriber ({@code @Batch(size = 100)})
 * that inserts a call's rows with one statement (an array parameter) in one transaction, drained in turn, round after round, in
 * the same
 * run. Both on workers, each bound only by the pool and the prefetch.
 */
@IfBuildProperty(name = "bench.drain", stringValue = "batch-cost")
@Path("/bench/batch-cost")
public class BatchCost {

    private static final AtomicInteger SINGLE = new AtomicInteger();
    private static final AtomicInteger BATCHED = new AtomicInteger();

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RabbitPublisher publisher;

    @Inject
    Subscriptions subscriptions;

    @Subscriber("bench.rows.single")
    @Transactional
    void single(Refund refund) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO bench_rows (refund_id) VALUES (?)")) {
            insert.setLong(1, refund.id());
            insert.executeUpdate();
        }
        SINGLE.incrementAndGet();
    }

    @Subscriber(value = "bench.rows.batch", batch = @Batch(size = 100, maxWait = "100ms"))
    @Transactional
    void batch(List<Refund> refunds) throws SQLException {
        // One statement for the whole batch: the rows as one array parameter.
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO bench_rows (refund_id) SELECT * FROM unnest(?::bigint[])")) {
            insert.setArray(1, connection.createArrayOf("bigint", refunds.stream().map(Refund::id).toArray()));
            insert.executeUpdate();
        }
        BATCHED.addAndGet(refunds.size());
    }

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @Blocking
    public String run(@QueryParam("messages") int messages, @QueryParam("rounds") int rounds) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, refund_id bigint)");
        }
        List<Double> single = new ArrayList<>();
        List<Double> batched = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        for (int round = 0; round <= rounds; round++) {
            double one = PausedDrain.micros(subscriptions, publisher, "bench.rows.single", messages, SINGLE);
            double many = PausedDrain.micros(subscriptions, publisher, "bench.rows.batch", messages, BATCHED);
            if (round == 0) {
                // The JIT's round: not counted.
                continue;
            }
            single.add(one);
            batched.add(many);
            ratios.add(one / many);
            out.append(String.format("round %d: one row per call %.0f us, batches of 100 %.1f us per message%n", round,
                    one, many));
        }
        out.append(String.format("one row per call: median %.0f us per message (%.0f msg/s)%n",
                PausedDrain.median(single), 1_000_000 / PausedDrain.median(single)));
        out.append(String.format("batches of 100:   median %.1f us per message (%.0f msg/s)%n",
                PausedDrain.median(batched), 1_000_000 / PausedDrain.median(batched)));
        out.append(String.format("batches / one per call: median %.1fx messages/s (rounds %s; target >= 5x)%n",
                PausedDrain.median(ratios), ratios.stream().map(r -> String.format("%.1f", r)).toList()));
        return out.toString();
    }
}
