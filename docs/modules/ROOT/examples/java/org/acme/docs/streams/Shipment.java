package org.acme.docs.streams;

/** A shipment event, as the warehouse writes it to the stream. */
public record Shipment(String orderId, String status) {
}
