package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import java.util.Map;

/** One delivery as an observer follows it, from its handler's start to its settlement. */
public interface Observation {

    Observation NONE = new Observation() {
    };

    /** On the handler's thread, once the handler returned (its synchronous part). */
    default void handlerReturned() {
    }

    /**
     * On the subscriber's event loop, once the delivery's fate is decided.
     *
     * @param outcome one of {@link OutcomeCounters#LABELS}
     * @param errorType the failure's type when the handler failed or the body was undecodable, else null
     */
    default void settled(String outcome, String errorType) {
    }

    /** Adds this delivery's context to the header table of a copy or dead letter published for it. */
    default void propagate(Map<String, Object> headers) {
    }
}
