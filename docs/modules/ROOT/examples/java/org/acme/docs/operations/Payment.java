package org.acme.docs.operations;

public record Payment(String id, String account, long amountCents) {
}
