package org.acme.docs.exactlyonce;

public record Order(String id, String item, int quantity) {
}
