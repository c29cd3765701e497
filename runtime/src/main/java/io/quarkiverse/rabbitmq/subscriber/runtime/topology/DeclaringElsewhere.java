package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import java.util.Optional;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.MetadataStoreTimeout;

/**
 * Startup's declaration of the topology, made again on another node of the cluster when the node the application
 * reached could not write it to its metadata store (RabbitMQ 4's Khepri, on a node cut off from its cluster's
 * majority, times out and closes the connection: {@link MetadataStoreTimeout}). The connection then reconnects to the
 * other listed nodes first ({@code NodeOrder}); this waits for it and declares again, at most once per listed node.
 * Any other failure, or one on the last node, fails the startup, saying what happened on each node.
 */
public final class DeclaringElsewhere {

    private static final Logger LOG = Logger.getLogger(DeclaringElsewhere.class);

    /** The declaration, on whatever node the connection is on now. */
    public interface Declaration {
        void declare() throws Exception;
    }

    /** Waits until the connection is open again (on another node); false when it is not within its patience. */
    public interface Reconnection {
        boolean awaitOpen() throws InterruptedException;

        /** Where the connection goes now, for the log. */
        String describe();
    }

    private DeclaringElsewhere() {
    }

    /**
     * @param nodes how many nodes {@code quarkus.rabbitmq-subscriber.addresses} lists (0 for a single url)
     */
    public static void declare(Declaration declaration, int nodes, Reconnection reconnection) throws Exception {
        for (int attempt = 1;; attempt++) {
            try {
                declaration.declare();
                if (attempt > 1) {
                    LOG.infof("Declared the topology on %s at attempt %d", reconnection.describe(), attempt);
                }
                return;
            } catch (Exception e) {
                Optional<MetadataStoreTimeout> timeout = MetadataStoreTimeout.in(e);
                if (timeout.isEmpty()) {
                    throw e;
                }
                if (nodes < 2) {
                    throw new IllegalStateException("Cannot declare the topology: " + timeout.get().describeNode()
                            + " timed out writing it to its metadata store (" + timeout.get().replyText() + "), as "
                            + "RabbitMQ 4 does on a node cut off from the majority of its cluster. List every node of "
                            + "the cluster in quarkus.rabbitmq-subscriber.addresses, so that the application declares "
                            + "on another one, or bring the cluster's majority back", e);
                }
                if (attempt >= nodes) {
                    throw new IllegalStateException("Cannot declare the topology: " + attempt + " nodes of "
                            + "quarkus.rabbitmq-subscriber.addresses in turn timed out writing it to their metadata "
                            + "store, the last " + timeout.get().describeNode() + " (" + timeout.get().replyText()
                            + "): the cluster has no majority the application can reach. Bring its nodes back "
                            + "together, then start the application again", e);
                }
                if (!reconnection.awaitOpen()) {
                    throw new IllegalStateException("Cannot declare the topology: " + timeout.get().describeNode()
                            + " timed out writing it to its metadata store (" + timeout.get().replyText() + ") and "
                            + "the connection to the other nodes of quarkus.rabbitmq-subscriber.addresses did not "
                            + "open again in time", e);
                }
                LOG.infof("Declaring the topology again, on %s (attempt %d of at most %d)", reconnection.describe(),
                        attempt + 1, nodes);
            }
        }
    }
}
