package org.acme.docs.outcomes;

public record Receipt(String id, long amountCents) {
}
