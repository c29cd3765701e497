package org.acme.docs.outputs;

public record Shipped(String orderId) {
}
