package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;

/**
 * A refusal ({@code ACCESS_REFUSED}, 403) turned into one error that names the resource and the permission the user
 * lacks, and what in the configuration asked for it. RabbitMQ's own text names the resource and the user, not which of
 * configure, write and read it checked.
 */
public final class PermissionRefusal {

    private PermissionRefusal() {
    }

    /**
     * @param permission {@code configure}, {@code write} or {@code read}
     * @param resource "queue 'orders'", "exchange 'payments'"
     * @param doing what needed it: "to declare it (declare-topology is on)"
     * @return null when {@code refusal} is not a refused permission
     */
    public static IllegalStateException of(BrokerException refusal, String permission, String resource, String doing) {
        if (refusal.replyCode() != BrokerException.ACCESS_REFUSED) {
            return null;
        }
        return new IllegalStateException("RabbitMQ refused the " + permission + " permission on " + resource + ", "
                + "needed " + doing + ": " + refusal.replyText() + ". Grant it (rabbitmqctl set_permissions; the "
                + "Security page lists what each mode needs)", refusal);
    }
}
