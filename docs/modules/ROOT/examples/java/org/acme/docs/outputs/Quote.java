package org.acme.docs.outputs;

public record Quote(String id, int cents) {
}
