package org.acme.docs.operations;

/** The payment gateway declined a payment: no later attempt would succeed. */
public class DeclinedException extends RuntimeException {

    public DeclinedException(String message) {
        super(message);
    }
}
