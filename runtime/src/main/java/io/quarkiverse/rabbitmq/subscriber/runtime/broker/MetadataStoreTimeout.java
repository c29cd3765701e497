package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A declaration the broker could not write to its metadata store in time. RabbitMQ 4.x's store (Khepri, a Raft log)
 * writes only with a majority of the cluster's nodes: a node cut off from the others answers a declaration, after the
 * store's timeout (30 s by default), by closing the whole connection with 541 INTERNAL_ERROR "... on node 'n' because
 * the metadata store operation timed out" (4.0: "... because the operation timed out"). Another node of the cluster,
 * on the majority's side, declares at once: the remedy is to connect elsewhere, which is why it is told apart from
 * every other refusal.
 *
 * @param node the node that timed out, as RabbitMQ names it ({@code rabbit@host}), or empty where it does not say
 * @param replyText what RabbitMQ said
 */
public record MetadataStoreTimeout(String node, String replyText) {

    private static final int INTERNAL_ERROR = 541;
    private static final Pattern NODE = Pattern.compile("on node '([^']+)'");

    /** The timeout among a failure's causes, if it is one. */
    public static Optional<MetadataStoreTimeout> in(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof BrokerException refused) {
                return of(refused.replyCode(), refused.replyText());
            }
        }
        return Optional.empty();
    }

    /** From a connection.close's reply code and text. */
    public static Optional<MetadataStoreTimeout> of(int replyCode, String replyText) {
        if (replyCode != INTERNAL_ERROR || replyText == null || !replyText.contains("timed out")) {
            return Optional.empty();
        }
        Matcher node = NODE.matcher(replyText);
        return Optional.of(new MetadataStoreTimeout(node.find() ? node.group(1) : "", replyText));
    }

    /** "RabbitMQ node 'rabbit@a'" or "the RabbitMQ node". */
    public String describeNode() {
        return node.isEmpty() ? "the RabbitMQ node" : "RabbitMQ node '" + node + "'";
    }
}
