package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A partition's attachment: it never cancels its consumer while it may hold deliveries (RabbitMQ would make another
 * instance's consumer active at once), it stops and closes instead, and consumes again on a fresh channel.
 */
class ReopeningAttachmentTest {

    final List<SubscriberSupervisorTest.FakeAttachment> opened = new ArrayList<>();
    final Attachment attachment;

    ReopeningAttachmentTest() throws Exception {
        attachment = ReopeningAttachment.open(() -> {
            SubscriberSupervisorTest.FakeAttachment fresh = new SubscriberSupervisorTest.FakeAttachment();
            opened.add(fresh);
            return fresh;
        });
    }

    @Test
    void aStopStopsTakingWithoutCancellingAndTheCloseEndsIt() {
        attachment.stopForClose();
        assertTrue(opened.get(0).stoppedTaking);
        assertFalse(opened.get(0).cancelled, "the consumer stays registered until the close");
        attachment.close();
        assertTrue(opened.get(0).closed);
    }

    @Test
    void aCutClosesTheChannelAndTheRecoveryConsumesOnAFreshOne() throws Exception {
        attachment.connectionLost();
        assertTrue(opened.get(0).closed, "what the cut channel delivered is not handled any more");
        attachment.consumeAgain("orders.3");
        assertEquals(2, opened.size(), "a fresh channel");
        assertEquals(0, opened.get(0).consumedAgain);
        attachment.connectionLost();
        attachment.connectionLost();
        assertTrue(opened.get(1).closed);
        attachment.consumeAgain("orders.3");
        assertEquals(3, opened.size());
    }
}
