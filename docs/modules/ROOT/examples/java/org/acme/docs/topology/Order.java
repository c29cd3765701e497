package org.acme.docs.topology;

public record Order(String id) {
}
