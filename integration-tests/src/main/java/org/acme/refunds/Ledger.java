package org.acme.refunds;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** What the service did with each refund, for the REST endpoints to show. */
@ApplicationScoped
public class Ledger {

    private final List<Refund> declined = new CopyOnWriteArrayList<>();
    private final Map<Long, Integer> attempts = new ConcurrentHashMap<>();
    private final Map<Long, Integer> payoutAttempts = new ConcurrentHashMap<>();
    private final List<Payout> paid = new CopyOnWriteArrayList<>();
    private final List<Payout> audited = new CopyOnWriteArrayList<>();
    private final List<RefundIssued> issued = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> deadRefunds = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> deadPayouts = new CopyOnWriteArrayList<>();

    public void attempted(long payoutId) {
        payoutAttempts.merge(payoutId, 1, Integer::sum);
    }

    public void paid(Payout payout) {
        paid.add(payout);
    }

    public void deadRefund(Refund refund, int deliveries, String routingKey) {
        deadRefunds.add(Map.of("refund", refund, "deliveries", deliveries, "routingKey", routingKey));
    }

    public void deadPayout(Payout payout, String reason) {
        deadPayouts.add(Map.of("payout", payout, "reason", reason));
    }

    public void issued(RefundIssued issued) {
        this.issued.add(issued);
    }

    public List<RefundIssued> issued() {
        return List.copyOf(issued);
    }

    public void audited(Payout payout) {
        audited.add(payout);
    }

    public List<Payout> audited() {
        return List.copyOf(audited);
    }

    public List<Payout> paid() {
        return List.copyOf(paid);
    }

    public int payoutAttempts(long id) {
        return payoutAttempts.getOrDefault(id, 0);
    }

    /** What {@code refunds.dead} received: each refund and its deliveries. */
    public List<Map<String, Object>> deadRefunds() {
        return List.copyOf(deadRefunds);
    }

    /** What {@code payouts.dead} received: each payout and RabbitMQ's reason. */
    public List<Map<String, Object>> deadPayouts() {
        return List.copyOf(deadPayouts);
    }

    public void attempted(Refund refund) {
        attempts.merge(refund.id(), 1, Integer::sum);
    }

    public void declined(Refund refund) {
        declined.add(refund);
    }

    public List<Refund> declined() {
        return List.copyOf(declined);
    }

    public int attempts(long id) {
        return attempts.getOrDefault(id, 0);
    }
}
