package org.acme.refunds;

/** A line for the ledger: an amount booked to an account (negative for a refund paid back). */
public record LedgerLine(String account, long amountCents) {
}
