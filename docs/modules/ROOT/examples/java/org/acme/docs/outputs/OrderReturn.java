package org.acme.docs.outputs;

public record OrderReturn(String orderId) {
}
