package org.acme.docs.retries;

public record Order(String id) {
}
