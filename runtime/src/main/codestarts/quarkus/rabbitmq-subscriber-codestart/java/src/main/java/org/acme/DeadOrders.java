package org.acme;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The ids of the orders that reached the dead-letter queue, as the dead-letter subscriber saw them. Replace it with
 * whatever should happen to a dead order: an alert, a row to review, a ticket.
 */
@ApplicationScoped
public class DeadOrders {

    private final List<String> ids = new CopyOnWriteArrayList<>();

    public void add(String id) {
        ids.add(id);
    }

    public List<String> ids() {
        return List.copyOf(ids);
    }
}
