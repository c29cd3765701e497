package org.acme.docs.retries;

public record Refund(long id, String card, long amountCents) {
}
