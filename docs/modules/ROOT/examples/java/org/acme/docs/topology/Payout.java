package org.acme.docs.topology;

public record Payout(long id, String account, long amountCents) {
}
