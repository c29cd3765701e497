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

    /** RabbitMQ's text: "[read ]access to queue 'q' in vhost '/' refused for user 'u'" (3.x leaves out which). */
    private static final java.util.regex.Pattern REFUSED = java.util.regex.Pattern
            .compile("(?:(configure|write|read) )?access to (queue|exchange) '([^']*)'");

    /**
     * @param permission {@code configure}, {@code write} or {@code read}: what the call needs; where RabbitMQ names the
     *        permission it refused, that one is named instead
     * @param resource "queue 'orders'", "exchange 'payments'": where RabbitMQ names another resource (the default
     *        exchange a queue dead-letters through), that one is named instead
     * @param doing what needed it: "to declare it (declare-topology is on)"
     * @return null when {@code refusal} is not a refused permission
     */
    public static IllegalStateException of(BrokerException refusal, String permission, String resource, String doing) {
        if (refusal.replyCode() != BrokerException.ACCESS_REFUSED) {
            return null;
        }
        String text = refusal.replyText() == null ? "" : refusal.replyText();
        java.util.regex.Matcher said = REFUSED.matcher(text);
        if (said.find()) {
            if (said.group(1) != null) {
                permission = said.group(1);
            }
            if (!resource.contains("'" + said.group(3) + "'")) {
                resource = said.group(2) + " '" + said.group(3) + "'";
            }
        }
        return new IllegalStateException("RabbitMQ refused the " + permission + " permission on " + resource + ", "
                + "needed " + doing + ": " + text + ". Grant it (rabbitmqctl set_permissions; the "
                + "Security page lists what each mode needs)", refusal);
    }
}
