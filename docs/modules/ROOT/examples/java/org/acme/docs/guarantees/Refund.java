package org.acme.docs.guarantees;

public record Refund(String id, String card, long amountCents) {
}
