package org.acme.docs.testing;

public record Refund(long id, String card, long amountCents) {
}
