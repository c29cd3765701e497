package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every offset spec the docs name parses; anything else is refused with what it may be. */
class StreamOffsetTest {

    @Test
    void parsesEverySpec() {
        assertEquals(new StreamOffset(StreamOffset.Kind.FIRST, 0), StreamOffset.parse("first"));
        assertEquals(new StreamOffset(StreamOffset.Kind.LAST, 0), StreamOffset.parse(" LAST "));
        assertEquals(new StreamOffset(StreamOffset.Kind.NEXT, 0), StreamOffset.parse("next"));
        assertEquals(new StreamOffset(StreamOffset.Kind.OFFSET, 42), StreamOffset.parse("offset:42"));
        assertEquals(new StreamOffset(StreamOffset.Kind.TIMESTAMP, 1_769_853_600_000L),
                StreamOffset.parse("timestamp:2026-01-31T10:00:00Z"));
        StreamOffset ago = StreamOffset.parse("ago:10m");
        assertEquals(new StreamOffset(StreamOffset.Kind.AGO, 600_000), ago);
        assertEquals(400_000, ago.timestampAt(1_000_000), "ago counts back from the clock's now");
    }

    @Test
    void refusesWhatDoesNotParse() {
        for (String spec : new String[] { "", "yesterday", "offset:-1", "offset:x", "first:1", "timestamp:noon",
                "ago:soon" }) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> StreamOffset.parse(spec), spec);
            assertTrue(refused.getMessage().startsWith("offset '" + spec + "' does not parse"), refused.getMessage());
        }
    }
}
