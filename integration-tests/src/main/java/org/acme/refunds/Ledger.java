package org.acme.refunds;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** What the service did with each refund, for the REST endpoints to show. */
@ApplicationScoped
public class Ledger {

    private final List<Refund> processed = new CopyOnWriteArrayList<>();
    private final List<Refund> declined = new CopyOnWriteArrayList<>();
    private final Map<Long, Integer> attempts = new ConcurrentHashMap<>();

    public void attempted(Refund refund) {
        attempts.merge(refund.id(), 1, Integer::sum);
    }

    public void processed(Refund refund) {
        processed.add(refund);
    }

    public void declined(Refund refund) {
        declined.add(refund);
    }

    public List<Refund> processed() {
        return List.copyOf(processed);
    }

    public List<Refund> declined() {
        return List.copyOf(declined);
    }

    public int attempts(long id) {
        return attempts.getOrDefault(id, 0);
    }
}
