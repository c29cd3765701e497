package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.health.SubscriberReadinessCheck;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.InboxOutboxFigures;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The figures an operator watches (virtual clock): a group of outputs that cannot leave (its queue does not exist)
 * waits in the outbox; the gauges show one row and its age, the Dev UI's figures say why the relay cannot publish it,
 * and once it is older than {@code outbox.stuck-after} readiness is DOWN naming the table. When the row is gone,
 * readiness is UP again. The inbox's figures count the rows handled.
 */
@Tag("database")
class OutboxFiguresTest {

    static final String QUEUE = "t.outbox.figures";
    static final String MISSING = "t.outbox.figures.nowhere";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_outbox_figures");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-deployment",
                    io.quarkus.builder.Version.getVersion())))
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false")
            .overrideConfigKey("quarkus.micrometer.registry-enabled-default", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.outbox.stuck-after", "5m");

    @BeforeAll
    static void simpleRegistry() {
        // With no registry enabled the global composite records nothing: give it one that keeps values in memory.
        Metrics.globalRegistry.add(new SimpleMeterRegistry());
    }

    @Inject
    RabbitPublisher publisher;

    @Inject
    InProcessBroker broker;

    @Inject
    InboxOutboxFigures figures;

    @Inject
    @Readiness
    SubscriberReadinessCheck readiness;

    @Inject
    MeterRegistry registry;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    BrokerSession session;

    @Test
    void aGroupThatCannotLeaveShowsAndTurnsReadinessDown() throws Exception {
        publisher.sendConfirmed(OutgoingMessage.toQueue(QUEUE).payload("x").messageId("f-1")).await().indefinitely();
        await().atMost(Duration.ofSeconds(10)).until(() -> figures.inbox().rows() == 1);
        assertTrue(figures.active());
        assertEquals(HealthCheckResponse.Status.UP, readiness.call().getStatus());

        // A group whose queue does not exist, written now on the runtime's clock.
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO rabbitmq_subscriber_outbox "
                        + "(group_id, seq, created_at, exchange, routing_key, mandatory, message_id, properties, body) "
                        + "VALUES ('g-stuck', 0, ?, '', ?, true, 'o-1', ?, ?)")) {
            insert.setTimestamp(1, new Timestamp(session.clock().millis()),
                    java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone("UTC")));
            insert.setString(2, MISSING);
            insert.setBytes(3, WireProperties.encode(new AMQP.BasicProperties.Builder().messageId("o-1").build()));
            insert.setBytes(4, new byte[] { 'x' });
            insert.executeUpdate();
        }
        // Past the relay's min-age (10 s) it tries, fails, and says why; a minute later the age shows.
        advanceUntil(() -> figures.outbox().lastFailure() != null && figures.outbox().oldestAgeMillis() != null
                && figures.outbox().oldestAgeMillis() >= 60_000, Duration.ofSeconds(10));
        assertEquals(1, figures.outbox().waiting());
        assertTrue(figures.outbox().lastFailure().contains(MISSING), figures.outbox().lastFailure());
        assertEquals(1.0, registry.get("quarkus.rabbitmq-subscriber.outbox.waiting").gauge().value());
        assertTrue(registry.get("quarkus.rabbitmq-subscriber.outbox.oldest.age").gauge().value() >= 60);
        assertNull(figures.stuck());
        assertEquals(HealthCheckResponse.Status.UP, readiness.call().getStatus());

        // Past stuck-after: DOWN, naming the table and why the relay cannot publish.
        advanceUntil(() -> figures.stuck() != null, Duration.ofMinutes(1));
        HealthCheckResponse down = readiness.call();
        assertEquals(HealthCheckResponse.Status.DOWN, down.getStatus());
        String why = String.valueOf(down.getData().orElseThrow().get("outbox"));
        assertTrue(why.contains("rabbitmq_subscriber_outbox") && why.contains("stuck-after") && why.contains(MISSING),
                why);

        // The operator removes the row (or creates the queue): the next pass finds the outbox empty, readiness UP.
        database.update("DELETE FROM rabbitmq_subscriber_outbox");
        advanceUntil(() -> figures.outbox().waiting() == 0, Duration.ofSeconds(1));
        assertNull(figures.stuck());
        assertEquals(HealthCheckResponse.Status.UP, readiness.call().getStatus());
        assertEquals(0.0, registry.get("quarkus.rabbitmq-subscriber.outbox.oldest.age").gauge().value());
    }

    /** The relay passes on its own thread once the clock makes one due: a step at a time until the condition holds. */
    void advanceUntil(java.util.concurrent.Callable<Boolean> condition, Duration step) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (condition.call()) {
                return true;
            }
            broker.advance(step);
            return false;
        });
    }

    @ApplicationScoped
    public static class Handler {
        @Subscriber(value = QUEUE, inbox = true)
        void handle(String body) {
        }
    }
}
