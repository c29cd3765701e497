package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many handlers an inbox subscription without a concurrency of its own runs at once. */
class InboxPoolShareTest {

    @Test
    void inboxSubscriptionsShareThePoolAndLeaveTwoConnectionsForTheRelayAndTheDeletes() {
        assertEquals(18, InboxTransactions.share(20, 1));
        assertEquals(9, InboxTransactions.share(20, 2));
        assertEquals(16, InboxTransactions.share(50, 3));
        assertEquals(1, InboxTransactions.share(20, 40), "at least one each");
    }

    @Test
    void aTinyPoolKeepsNothingBack() {
        assertEquals(4, InboxTransactions.share(4, 1));
        assertEquals(1, InboxTransactions.share(1, 1));
        assertEquals(1, InboxTransactions.share(4, 3));
    }
}
