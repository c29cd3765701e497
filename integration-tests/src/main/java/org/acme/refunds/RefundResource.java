package org.acme.refunds;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.smallrye.mutiny.Uni;

@Path("/")
public class RefundResource {

    @Inject
    RabbitPublisher publisher;

    @Inject
    Ledger ledger;

    @Inject
    Processor processor;

    /** Publishes a refund request to the payments exchange; answers 202 once RabbitMQ confirmed it. */
    @POST
    @Path("refunds")
    public Uni<Response> submit(Refund refund) {
        // The refund's own id as the message-id: a request sent twice is recorded once (the subscriber's inbox).
        return publisher.sendConfirmed(OutgoingMessage.to("payments", "refund.requested").payload(refund)
                .messageId("refund-" + refund.id())).map(ignored -> Response.accepted().build());
    }

    @GET
    @Path("refunds/processed")
    public List<Refund> processed() {
        return RefundRecord.refunds();
    }

    @GET
    @Path("refunds/declined")
    public List<Refund> declined() {
        return ledger.declined();
    }

    @GET
    @Path("refunds/{id}/attempts")
    public Map<String, Integer> attempts(@PathParam("id") long id) {
        return Map.of("attempts", ledger.attempts(id));
    }

    /** What {@code refunds.dead} received. */
    @GET
    @Path("refunds/dead")
    public List<Map<String, Object>> deadRefunds() {
        return ledger.deadRefunds();
    }

    /** Publishes a payout request to the payout-requests fanout; answers 202 once RabbitMQ confirmed it. */
    @POST
    @Path("payouts")
    public Uni<Response> payout(Payout payout) {
        return publisher.publishConfirmed(Audit.PAYOUT_REQUESTS, "", payout)
                .map(ignored -> Response.accepted().build());
    }

    /** The refund-issued events the audit trail received, one per processed refund. */
    @GET
    @Path("audit/refunds")
    public List<RefundIssued> issued() {
        return ledger.issued();
    }

    /** The payouts the audit trail received through the fanout. */
    @GET
    @Path("audit/payouts")
    public List<Payout> audited() {
        return ledger.audited();
    }

    @GET
    @Path("payouts/paid")
    public List<Payout> paid() {
        return ledger.paid();
    }

    @GET
    @Path("payouts/{id}/attempts")
    public Map<String, Integer> payoutAttempts(@PathParam("id") long id) {
        return Map.of("attempts", ledger.payoutAttempts(id));
    }

    /** What {@code payouts.dead} received. */
    @GET
    @Path("payouts/dead")
    public List<Map<String, Object>> deadPayouts() {
        return ledger.deadPayouts();
    }

    /** Scripts the answers the processor gives for a card, e.g. {@code ["UNAVAILABLE","OK"]}. */
    @PUT
    @Path("processor/{card}")
    public void script(@PathParam("card") String card, List<Processor.Answer> answers) {
        processor.script(card, answers);
    }
}
