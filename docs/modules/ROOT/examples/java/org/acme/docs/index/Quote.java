package org.acme.docs.index;

public record Quote(String id, int cents) {
}
