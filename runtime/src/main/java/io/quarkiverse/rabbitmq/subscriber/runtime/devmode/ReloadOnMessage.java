package io.quarkiverse.rabbitmq.subscriber.runtime.devmode;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Where dev mode's hot-reload scan is reachable from the consumers. Set once dev mode has started (by
 * {@link SubscriberHotReplacementSetup}, loaded by the class loader that outlives reloads), unset elsewhere.
 */
public final class ReloadOnMessage {

    private static volatile Supplier<CompletableFuture<Boolean>> scan;

    private ReloadOnMessage() {
    }

    static void register(Supplier<CompletableFuture<Boolean>> scan) {
        ReloadOnMessage.scan = scan;
    }

    /**
     * Asks for a scan of the sources: completes with true when the application was restarted (the caller belongs to
     * the old one then), false when nothing changed or a scan ran moments ago; null outside dev mode.
     */
    public static Supplier<CompletableFuture<Boolean>> scan() {
        return scan;
    }
}
