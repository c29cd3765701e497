package org.acme.docs.partitions;

/** One entry of an account's ledger: the entries of an account must be posted in the order of their sequence. */
public record LedgerEntry(String accountId, long sequence, long amountCents) {
}
