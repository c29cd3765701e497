package org.acme.docs.topology;

public record Refund(long id, String card, long amountCents) {
}
