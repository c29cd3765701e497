package org.acme.refunds;

/** The event a processed refund publishes, through its handler's {@code Outputs}, to the {@code refund-events} exchange. */
public record RefundIssued(long refundId, String card, long amountCents) {

    /** The topic exchange refund events go to. */
    public static final String EXCHANGE = "refund-events";
    /** Its routing key. */
    public static final String KEY = "refund.issued";
}
