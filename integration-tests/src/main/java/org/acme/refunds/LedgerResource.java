package org.acme.refunds;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.smallrye.mutiny.Uni;

/** The ledger: lines in (one message each, booked by the batch subscriber), and what was booked in how many calls. */
@Path("/ledger/lines")
public class LedgerResource {

    @Inject
    RabbitPublisher publisher;

    @Inject
    LedgerLines ledgerLines;

    /** Publishes each line to the ledger-lines queue; answers 202 once RabbitMQ confirmed them all. */
    @POST
    public Uni<Response> add(List<LedgerLine> lines) {
        return Uni.join().all(lines.stream()
                .map(line -> publisher.sendConfirmed(OutgoingMessage.toQueue("ledger-lines").payload(line))).toList())
                .andFailFast().map(ignored -> Response.accepted().build());
    }

    @GET
    public Map<String, Long> booked() {
        return Map.of("lines", LedgerLineRecord.count(), "batches", (long) ledgerLines.batches());
    }
}
