package org.acme.docs.retries;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** A stand-in for a payment gateway that is down: every charge fails. */
@ApplicationScoped
public class Gateway {

    private final List<String> charges = new CopyOnWriteArrayList<>();

    public void charge(Payment payment) {
        charges.add(payment.id());
        throw new IllegalStateException("the gateway is down");
    }

    List<String> charges() {
        return List.copyOf(charges);
    }
}
