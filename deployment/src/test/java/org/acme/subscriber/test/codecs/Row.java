package org.acme.subscriber.test.codecs;

/** A row another team's service sends in a small binary format of its own ({@link RowCodec}), or as JSON. */
public record Row(int id, String name) {
}
