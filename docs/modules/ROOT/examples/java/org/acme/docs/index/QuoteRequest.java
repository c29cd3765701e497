package org.acme.docs.index;

public record QuoteRequest(String id) {
}
