package org.acme.refunds;

import java.time.Instant;
import java.util.List;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A ledger line as the {@code ledger-lines} batch subscriber booked it, with the others of its batch. */
@Entity
@Table(name = "ledger_lines")
public class LedgerLineRecord extends PanacheEntityBase {

    @Id
    @GeneratedValue
    public Long id;

    public String account;

    public long amountCents;

    public Instant bookedAt;

    /** Books a batch's lines; joins the caller's transaction. */
    static void book(List<LedgerLine> lines) {
        Instant now = Instant.now();
        persist(lines.stream().map(line -> {
            LedgerLineRecord record = new LedgerLineRecord();
            record.account = line.account();
            record.amountCents = line.amountCents();
            record.bookedAt = now;
            return record;
        }));
    }
}
