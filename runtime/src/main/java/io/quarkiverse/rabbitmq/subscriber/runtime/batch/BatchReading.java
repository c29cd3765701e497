package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import java.util.Arrays;
import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ReadResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * What a batch handler's result means for each item of its list: the item's {@code Outcome} from the
 * {@link BatchOutcome} (an ack where it names none), or, for every item, the batch's failure (a throw, a null
 * {@code BatchOutcome}, a value of another type, an index outside the list) or {@link Verdict#NOT_RUN}. Each
 * item's result is then read and decided as a single handler's would be ({@link ReadResult}).
 */
public final class BatchReading {

    private final SubscriberDefinition.ReturnKind returnKind;

    public BatchReading(SubscriberDefinition definition) {
        this.returnKind = definition.returnKind;
    }

    /**
     * @param count the items in the handler's list
     * @param async whether it is what an asynchronous result completed with
     */
    public Object[] perItem(Object result, int count, boolean async) {
        Object[] items = new Object[count];
        if (result instanceof BatchOutcome outcome) {
            Map<Integer, Outcome> notAcked = outcome.notAcked();
            int highest = -1;
            for (int index : notAcked.keySet()) {
                highest = Math.max(highest, index);
            }
            if (highest >= count) {
                Arrays.fill(items, Verdict.thrown(new IllegalStateException("The handler returned "
                        + outcome + ", which names item " + highest + " of a batch of " + count + " (items 0 to "
                        + (count - 1) + ")")));
                return items;
            }
            for (int i = 0; i < count; i++) {
                items[i] = outcome.outcome(i);
            }
            return items;
        }
        if (result == null) {
            boolean returnsVoid = async ? returnKind == SubscriberDefinition.ReturnKind.ASYNC_VOID
                    : returnKind == SubscriberDefinition.ReturnKind.VOID;
            Arrays.fill(items, returnsVoid ? Outcome.ack()
                    : Verdict.thrown(new NullPointerException("the batch handler returned a null "
                            + "BatchOutcome")));
            return items;
        }
        if (result instanceof Verdict) {
            Arrays.fill(items, result);
            return items;
        }
        Arrays.fill(items, Verdict.thrown(new IllegalStateException("the batch handler returned "
                + result.getClass().getName() + " where a BatchOutcome was expected")));
        return items;
    }

    /** Whether item {@code index}'s result is an ack. */
    public static boolean acks(Object[] perItem, int index) {
        return perItem[index] instanceof Outcome outcome && outcome.kind() == Outcome.Kind.ACK;
    }
}
