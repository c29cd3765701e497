package org.acme.docs.retries;

public record Payout(long id, String account, long amountCents) {
}
