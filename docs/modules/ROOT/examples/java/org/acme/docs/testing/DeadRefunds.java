package org.acme.docs.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class DeadRefunds {

    public record Entry(Refund refund, int deliveries) {
    }

    private final List<Entry> entries = new CopyOnWriteArrayList<>();

    public void add(Refund refund, int deliveries) {
        entries.add(new Entry(refund, deliveries));
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }
}
