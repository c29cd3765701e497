package org.acme.docs.partitions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The Ordered partitions page's samples on the in-process broker (its clock paused): the ledger's partitions are
 * declared as the page says, every account's entries are posted in order, and a failed entry holds the later entries
 * of its account, published either way the page shows, until its back-off has passed.
 */
class PartitionsSamplesTest {

    private static final Duration CONFIRM = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Ledger.class, LedgerEntry.class, LedgerEntries.class,
                    Accounts.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    LedgerEntries entries;

    @Inject
    Accounts accounts;

    @Test
    void eightQuorumPartitionsWithSingleActiveConsumerAreDeclared() {
        for (int partition = 0; partition < 8; partition++) {
            Map<String, Object> arguments = broker.queue("ledger." + partition).arguments();
            assertEquals(true, arguments.get("x-single-active-consumer"), "ledger." + partition + ": " + arguments);
            assertEquals("quorum", String.valueOf(arguments.get("x-queue-type")), "ledger." + partition);
            assertEquals("ledger.dead", String.valueOf(arguments.get("x-dead-letter-routing-key")));
        }
    }

    @Test
    void everyAccountsEntriesArePostedInTheOrderTheyWerePublished() {
        List<String> accountIds = List.of("acct-1", "acct-2", "acct-3", "acct-4");
        for (long sequence = 1; sequence <= 10; sequence++) {
            for (String accountId : accountIds) {
                entries.record(new LedgerEntry(accountId, sequence, 100)).await().atMost(CONFIRM);
            }
        }
        broker.awaitIdle();
        List<Long> inOrder = LongStream.rangeClosed(1, 10).boxed().toList();
        for (String accountId : accountIds) {
            assertEquals(inOrder, accounts.posted(accountId), accountId);
        }
    }

    // tag::test[]
    @Test
    void aFailedEntryHoldsItsAccountsLaterEntriesUntilItsBackOffHasPassed() {
        accounts.unavailableOnce("acct-9");
        entries.record(new LedgerEntry("acct-9", 1, 100)).await().atMost(CONFIRM);
        // Published by another service straight to the exchange: the same key, the same partition.
        entries.recordThroughTheExchange(new LedgerEntry("acct-9", 2, 100)).await().atMost(CONFIRM);
        broker.awaitIdle();
        assertEquals(List.of(), accounts.posted("acct-9"),
                "entry 1 waits its back-off of 1 s in place, and entry 2 waits behind it");

        broker.advance(Duration.ofSeconds(1));
        broker.awaitIdle();
        assertEquals(List.of(1L, 2L), accounts.posted("acct-9"));
    }
    // end::test[]
}
