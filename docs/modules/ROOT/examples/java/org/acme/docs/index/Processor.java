package org.acme.docs.index;

import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class Processor {

    public enum Answer {
        OK,
        BUSY,
        UNAVAILABLE,
        DECLINED
    }

    public Answer refund(String card) {
        return Answer.OK; // call the card processor here
    }
}
