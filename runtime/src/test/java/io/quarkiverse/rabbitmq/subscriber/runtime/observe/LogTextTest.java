package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A publisher's text cannot start a log line of its own nor steer a terminal. */
class LogTextTest {

    @Test
    void controlCharactersAreEscaped() {
        assertEquals("plain id-1", LogText.of("plain id-1"));
        assertEquals("a\\r\\nERROR forged\\e[31m\\u0007 tab\tkept", LogText.of("a\r\nERROR forged\u001b[31m\u0007 tab\tkept"));
        assertEquals("\\u2028", LogText.of("\u2028"));
        assertEquals("null", LogText.of(null));
    }

    @Test
    void longTextIsCut() {
        String text = LogText.of("x".repeat(1_000));
        assertTrue(text.startsWith("x".repeat(200) + "..."), text);
        assertTrue(text.endsWith("(1000 characters)"), text);
    }
}
