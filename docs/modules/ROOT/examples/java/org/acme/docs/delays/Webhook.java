package org.acme.docs.delays;

public record Webhook(String id) {
}
