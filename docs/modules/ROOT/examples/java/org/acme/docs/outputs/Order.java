package org.acme.docs.outputs;

public record Order(String id) {
}
