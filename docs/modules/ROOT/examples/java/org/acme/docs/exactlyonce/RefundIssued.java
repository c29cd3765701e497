package org.acme.docs.exactlyonce;

/** The event a refund's issuing publishes. */
public record RefundIssued(String refundId) {
}
