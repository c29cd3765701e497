package org.acme.docs.guarantees;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Where refunds are recorded, keyed by refund id. In this sample a map; in an application, a table whose key is the
 * refund id ({@code INSERT ... ON CONFLICT DO NOTHING}), written in the transaction of the refund's other effects.
 */
@ApplicationScoped
public class RefundLedger {

    private final Map<String, Refund> recorded = new ConcurrentHashMap<>();

    /** Records the refund unless one with its id is recorded already; says whether it did. */
    public boolean recordOnce(Refund refund) {
        return recorded.putIfAbsent(refund.id(), refund) == null;
    }

    public List<Refund> recorded() {
        return List.copyOf(recorded.values());
    }
}
