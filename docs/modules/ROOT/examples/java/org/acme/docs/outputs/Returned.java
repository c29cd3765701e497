package org.acme.docs.outputs;

public record Returned(String orderId) {
}
