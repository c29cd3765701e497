package org.acme.docs.outputs;

public record Shipment(String orderId) {
}
