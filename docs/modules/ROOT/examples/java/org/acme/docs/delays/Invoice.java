package org.acme.docs.delays;

public record Invoice(String id) {
}
