package org.acme.subscriber.test.codecs;

/** A note sent as JSON, compressed or not. */
public record Note(String id, String text) {
}
