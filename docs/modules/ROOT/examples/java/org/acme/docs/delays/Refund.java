package org.acme.docs.delays;

public record Refund(String id) {
}
