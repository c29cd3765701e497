package org.acme.docs.partitions;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The service the ledger's handler posts to. In this sample it keeps the postings in memory, and can be told to be
 * unavailable once for an account, as a real one is now and then.
 */
@ApplicationScoped
public class Accounts {

    private final Map<String, List<Long>> posted = new ConcurrentHashMap<>();
    private final Set<String> unavailableOnce = ConcurrentHashMap.newKeySet();

    public void post(LedgerEntry entry) {
        if (unavailableOnce.remove(entry.accountId())) {
            throw new IllegalStateException("the accounts service is unavailable for " + entry.accountId());
        }
        posted.computeIfAbsent(entry.accountId(), id -> new CopyOnWriteArrayList<>()).add(entry.sequence());
    }

    /** The sequence numbers posted to an account, in the order they were posted. */
    public List<Long> posted(String accountId) {
        return List.copyOf(posted.getOrDefault(accountId, List.of()));
    }

    /** Makes the next posting to this account fail. */
    public void unavailableOnce(String accountId) {
        unavailableOnce.add(accountId);
    }
}
