package org.acme.docs.retries;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

/** A stand-in for the services the handlers call: a card or account starting with 0000 always fails. */
@ApplicationScoped
public class Processor {

    public boolean refund(String card) {
        return !card.startsWith("0000");
    }

    public Uni<Boolean> payout(Payout payout) {
        return Uni.createFrom().item(!payout.account().startsWith("0000"));
    }
}
