package org.acme;

/**
 * The payload of the orders queue, published and decoded as JSON: {"id": "A-1", "quantity": 2}.
 */
public record Order(String id, int quantity) {
}
