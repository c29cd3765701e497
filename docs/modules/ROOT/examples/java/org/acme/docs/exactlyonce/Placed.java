package org.acme.docs.exactlyonce;

/** The event an order's placing publishes. */
public record Placed(String orderId) {
}
