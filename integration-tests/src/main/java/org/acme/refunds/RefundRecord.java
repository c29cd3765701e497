package org.acme.refunds;

import java.time.Instant;
import java.util.List;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A refund paid back, recorded in the database by the {@code refunds} subscriber in the inbox's transaction: a refund
 * delivered twice (a cut, a crash after the commit, a publisher that retried) is recorded once.
 */
@Entity
@Table(name = "refund_records")
public class RefundRecord extends PanacheEntityBase {

    @Id
    public long refundId;

    public String card;

    public long amountCents;

    public Instant processedAt;

    /** Records a refund that went through; joins the caller's transaction. */
    static void record(Refund refund) {
        RefundRecord record = new RefundRecord();
        record.refundId = refund.id();
        record.card = refund.card();
        record.amountCents = refund.amountCents();
        record.processedAt = Instant.now();
        record.persist();
    }

    /** Every refund recorded, as the refunds they were. */
    static List<Refund> refunds() {
        return RefundRecord.<RefundRecord> listAll().stream()
                .map(record -> new Refund(record.refundId, record.card, record.amountCents)).toList();
    }
}
