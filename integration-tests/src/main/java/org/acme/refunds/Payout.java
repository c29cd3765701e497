package org.acme.refunds;

/** A payout to a card, as the {@code payouts} queue carries it (JSON). */
public record Payout(long id, String card, long amountCents) {
}
