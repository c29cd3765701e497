package org.acme.docs.payloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.acme.docs.payloads.proto.Invoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The Payloads page: a Protobuf invoice, readings through the application's CSV codec, gzip, a refused body. */
class PayloadsSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Invoices.class, Reading.class, CsvReadings.class, Readings.class)
                    .addPackage(Invoice.class.getPackage()))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    RabbitPublisher publisher;

    @Inject
    Invoices invoices;

    @Inject
    Readings readings;

    @Test
    void anInvoiceIsSentAndReadAsProtobuf() {
        invoices.issue("i-1", 1250);
        broker.awaitIdle();
        assertEquals(List.of(Invoice.newBuilder().setId("i-1").setCents(1250).build()), invoices.booked());
    }

    @Test
    void readingsTravelAsCsvCompressedOrNotAndAsJson() {
        broker.publish("readings", new Reading("t-1", 21.5)); // as the publisher encodes: CSV
        readings.sendDay(List.of(new Reading("t-2", 19.0)));
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue("readings").payload("{\"sensor\":\"t-3\",\"value\":18.5}")
                .contentType("application/json"));
        broker.awaitIdle();
        assertTrue(readings.recorded().containsAll(List.of(new Reading("t-1", 21.5), new Reading("t-2", 19.0),
                new Reading("t-3", 18.5))), readings.recorded().toString());
    }

    @Test
    void aBodyTheCodecCannotReadIsDeadLetteredAtOnce() {
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue("readings").payload("t-4;not csv").contentType("text/csv"));
        broker.awaitIdle();
        List<InProcessBroker.QueuedMessage> dead = broker.messages("readings.dead");
        assertEquals(1, dead.size());
        assertEquals(UndecodablePayloadException.class.getName(), dead.get(0).header(Delivery.EXCEPTION_TYPE_HEADER));
    }
}
