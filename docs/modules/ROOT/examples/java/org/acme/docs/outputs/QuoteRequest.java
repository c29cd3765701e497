package org.acme.docs.outputs;

public record QuoteRequest(String id) {
}
