package org.acme.docs.delays;

public record Payout(String id) {
}
