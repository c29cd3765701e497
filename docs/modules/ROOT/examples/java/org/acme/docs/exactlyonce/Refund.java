package org.acme.docs.exactlyonce;

public record Refund(String id, String orderId, long amountCents) {
}
