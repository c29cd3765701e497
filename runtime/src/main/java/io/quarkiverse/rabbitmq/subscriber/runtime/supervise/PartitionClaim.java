package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The claim this instance made on a partition ({@code PartitionSpreader}): the consumer priority it consumes with from
 * then on, after a loss too; 0 while it made none.
 */
final class PartitionClaim {

    private volatile int priority;

    void claim(int priority) {
        this.priority = priority;
    }

    /** The consumer arguments to consume with: {@code declared}, with the claim's priority if there is one. */
    Map<String, Object> arguments(Map<String, Object> declared) {
        int claimed = priority;
        if (claimed == 0) {
            return declared;
        }
        Map<String, Object> arguments = new LinkedHashMap<>(declared);
        arguments.put("x-priority", claimed);
        return arguments;
    }
}
