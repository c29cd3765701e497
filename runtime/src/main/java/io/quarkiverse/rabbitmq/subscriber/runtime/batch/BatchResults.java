package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import java.util.List;
import java.util.concurrent.CompletionStage;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryReporter;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DoneStages;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ReadResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ResultStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * What a batch's handling came to, on the subscriber's event loop: an asynchronous result awaited (on the batch's
 * context), read per item ({@link BatchReading}), the batch's outputs published before any ack ({@link BatchOutputs}),
 * then every item passed, one by one, to the single path's last stages ({@code ReadResult}, the
 * verdict stages): each is decided, reported and settled exactly as a single handler's delivery with that result
 * would be, and the acks of one pass leave together ({@code basic.ack multiple}). The items settled alone
 * (undecodable, duplicates) go first. Then the collector may start the next batch. A bug in here still settles every
 * item (requeued) and frees the batch's place.
 */
public final class BatchResults {

    private static final Logger LOG = Logger.getLogger(BatchResults.class);

    private final BatchReading reading;
    /** null when the handler takes no {@code Outputs}. */
    private final BatchOutputs outputs;
    private final ResultStage items;
    private final Settlements settlements;
    /** Says a failure of the whole batch once instead of once per item it retries. */
    private final DeliveryReporter reporter;
    private Runnable finished;

    public BatchResults(BatchReading reading, BatchOutputs outputs, ResultStage items, Settlements settlements,
            DeliveryReporter reporter) {
        this.reading = reading;
        this.outputs = outputs;
        this.items = items;
        this.settlements = settlements;
        this.reporter = reporter;
    }

    /** What frees a batch's place ({@link BatchCollector#finished}); set once, before the first batch. */
    public void finishing(Runnable finished) {
        this.finished = finished;
    }

    /** @param async whether it is what an asynchronous result completed with */
    void pass(DeliveryBatch batch, Object result, boolean async) {
        if (result instanceof CompletionStage<?> stage) {
            if (DoneStages.isDone(stage)) {
                pass(batch, DoneStages.resultOf(stage), true);
            } else {
                stage.whenComplete((value, failure) -> onContext(batch, failure != null
                        ? Verdict.thrown(DoneStages.unwrap(failure))
                        : value));
            }
            return;
        }
        try {
            Object[] perItem = reading.perItem(result, batch.handled().size(), async);
            boolean failed = result instanceof Verdict verdict && verdict.isFailed();
            batch.observation().settled(failed ? "failure" : "ack",
                    failed ? ((Verdict) result).cause().getClass().getName() : null);
            if (outputs != null) {
                outputs.publishThen(batch, perItem, this::settle, finished);
            } else {
                settle(batch, perItem);
            }
        } catch (Throwable t) {
            requeueUnsettled(batch, t);
        }
    }

    /** What an asynchronous result came to, on the batch's event-loop context. */
    private void onContext(DeliveryBatch batch, Object completed) {
        Context context = batch.context();
        if (Context.isOnEventLoopThread() && Vertx.currentContext() == context) {
            pass(batch, completed, true);
        } else {
            context.runOnContext(ignored -> pass(batch, completed, true));
        }
    }

    private void settle(DeliveryBatch batch, Object[] perItem) {
        try {
            Context context = batch.context();
            List<InboundDelivery> alone = batch.aloneItems();
            for (int i = 0; i < alone.size(); i++) {
                items.pass(context, alone.get(i), batch.aloneResults().get(i), false);
            }
            List<InboundDelivery> handled = batch.handled();
            Throwable shared = sharedFailure(perItem);
            if (shared != null) {
                reporter.batchFailing(shared);
            }
            try {
                for (int i = 0; i < perItem.length; i++) {
                    items.pass(context, handled.get(i), perItem[i], false);
                }
            } finally {
                if (shared != null) {
                    reporter.batchFailed(batch.describe(), handled.get(0).queue());
                }
            }
            finished.run();
        } catch (Throwable t) {
            requeueUnsettled(batch, t);
        }
    }

    /** The failure several items share (the batch's own: BatchReading gives each item the same), or null. */
    private static Throwable sharedFailure(Object[] perItem) {
        for (int i = 1; i < perItem.length; i++) {
            if (perItem[i] instanceof Verdict failed && failed.isFailed() && perItem[i] == perItem[i - 1]) {
                return failed.cause();
            }
        }
        return null;
    }

    private void requeueUnsettled(DeliveryBatch batch, Throwable t) {
        LOG.errorf(t, "Settling %s on queue '%s' failed; requeueing what is not settled", batch.describe(),
                batch.items().get(0).queue());
        for (InboundDelivery item : batch.items()) {
            if (!item.isSettled()) {
                settlements.settle(item, Settlement.REQUEUE);
            }
        }
        finished.run();
    }
}
