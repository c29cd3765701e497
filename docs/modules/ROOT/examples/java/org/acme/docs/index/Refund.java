package org.acme.docs.index;

public record Refund(long id, String card, long amountCents) {
}
