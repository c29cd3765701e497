package org.acme.docs.retries;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** A stand-in for a warehouse system that is down until someone fixes it. */
@ApplicationScoped
public class Warehouse {

    private volatile boolean up;
    private final List<String> reserved = new CopyOnWriteArrayList<>();

    public void reserve(Order order) {
        if (!up) {
            throw new IllegalStateException("the warehouse is down");
        }
        reserved.add(order.id());
    }

    void fix() {
        up = true;
    }

    List<String> reserved() {
        return List.copyOf(reserved);
    }
}
