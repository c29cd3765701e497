package org.acme.refunds;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A {@link RefundIssued} event the audit trail received, one row per event handled: the audit subscriber has an inbox,
 * so an event published twice (the outbox's relay after a crash) is one row.
 */
@Entity
@Table(name = "issued_audit")
public class IssuedAudit extends PanacheEntityBase {

    @Id
    @GeneratedValue
    public Long id;

    public long refundId;

    static void record(RefundIssued issued) {
        IssuedAudit audit = new IssuedAudit();
        audit.refundId = issued.refundId();
        audit.persist();
    }
}
