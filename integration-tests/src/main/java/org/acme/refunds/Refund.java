package org.acme.refunds;

/** A refund to pay back to a card. */
public record Refund(long id, String card, long amountCents) {
}
