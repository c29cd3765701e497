package org.acme.docs.failurewaits;

public record Payout(String id, long amountCents) {
}
