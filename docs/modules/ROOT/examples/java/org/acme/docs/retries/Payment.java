package org.acme.docs.retries;

public record Payment(String id, long amountCents) {
}
