package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Run-time configuration of the RabbitMQ subscribers.
 */
@ConfigMapping(prefix = "quarkus.rabbitmq-subscriber")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface SubscriberConfig {

    /**
     * The default broker's connection: {@code url} or {@code addresses}, the login, TLS, recovery, the stream port and
     * the heartbeat, at the root of {@code quarkus.rabbitmq-subscriber}.
     */
    @io.smallrye.config.WithParentName
    BrokerSettings defaultBroker();

    /**
     * Named brokers beside the default one, as Quarkus names datasources: {@code brokers."billing".url} (or
     * {@code addresses}), TLS, the credentials provider, the heartbeat and recovery, everything the default broker
     * takes. {@code @Subscriber(broker = "billing")} consumes there and {@code @Broker("billing") RabbitPublisher}
     * publishes there, each on connections of its own. A virtual host is a broker of its own: two names with the same
     * address and different virtual hosts never see each other's messages. Dev Services starts the default broker only;
     * the in-process broker serves every name, each apart.
     */
    @io.quarkus.runtime.annotations.ConfigDocMapKey("broker-name")
    java.util.Map<String, BrokerSettings> brokers();

    /** Stream subscriptions ({@code type = QueueType.STREAM}), by stream. */
    @io.quarkus.runtime.annotations.ConfigDocMapKey("stream")
    java.util.Map<String, StreamSettings> streams();

    interface StreamSettings {
        /**
         * The name the stream's consumer stores its offset under; every instance with the same name shares one
         * position. Default: {@code quarkus.application.name}.
         */
        Optional<String> consumerName();
    }

    /**
     * How many unsettled deliveries each subscriber may hold at once ({@code basic.qos}), unless its
     * {@code @Subscriber(prefetch)} says otherwise.
     */
    @WithDefault("250")
    int prefetch();

    /**
     * On shutdown, how long to wait for handlers in flight to finish and their deliveries to be settled before the
     * channels close (whatever is still unsettled then is requeued by RabbitMQ).
     */
    @WithDefault("30s")
    Duration shutdownTimeout();

    /**
     * How long a delivery waits before it goes back to its queue when what it had to publish (a copy, a dead letter, an
     * output) was refused or could not be confirmed: a missing dead-letter queue, say, would otherwise send it round,
     * through its handler, at the broker's speed.
     */
    @WithDefault("1s")
    Duration refusedCopyPause();

    /**
     * The header the runtime reads the delivery count from ({@code Delivery.attempt()}). Change it to share the
     * count with services that use another header name.
     */
    @WithDefault("x-retry-count")
    String retryCountHeader();

    /**
     * Which broker to use: {@code rabbitmq} (a RabbitMQ server at {@code url}), {@code in-process} (the in-process
     * broker, for tests), or {@code auto}: RabbitMQ when it is reachable, else the in-process broker with a loud warning.
     * {@code auto} never falls back in prod mode: there it fails to start when RabbitMQ cannot be reached.
     */
    @WithDefault("rabbitmq")
    BrokerKind broker();

    /** The in-process broker. */
    InProcess inProcess();

    /** The {@code IN_SERVICE} delay's copies, held in the heap. */
    InService inService();

    interface InService {
        /**
         * The most delayed copies one subscription holds. At this bound the subscriber stops taking deliveries (they
         * wait in RabbitMQ) until half of them are published back: held copies are acked already, so without a bound
         * a backlog answered with {@code retryAfter} would move into the heap at broker speed.
         */
        @WithDefault("10000")
        int maxHeld();

        /**
         * The most body bytes one subscription holds in delayed copies, with the same back-pressure. Default: a
         * twentieth of the maximum heap.
         */
        Optional<io.quarkus.runtime.configuration.MemorySize> maxHeldBytes();
    }

    /** Replies a handler sends with {@code Outputs.reply}. */
    Replies replies();

    interface Replies {
        /**
         * The queues a reply may go to, by name or by a prefix ending in {@code *} ({@code quote-replies.*}). A request's
         * {@code reply-to} is the requester's word and the reply goes out with the application's permissions: a
         * reply-to naming another queue fails the handler (as a reply without a reply-to does), naming it. Unset: any
         * queue except the application's own work, waiting and dead-letter queues, which are never allowed. Direct
         * reply-to addresses ({@code amq.rabbitmq.reply-to}) are always allowed: they reach only the requester.
         */
        Optional<java.util.List<String>> allowedQueues();
    }

    /** The injectable {@code RabbitPublisher}. */
    Publisher publisher();

    interface Publisher {
        /**
         * How long a confirmed send ({@code sendConfirmed}, {@code sendConfirmedAndAwait}) waits for the broker's confirm
         * before it fails with a {@code TimeoutException}. RabbitMQ withholds confirms while it blocks publishers (a
         * memory or disk alarm).
         */
        @WithDefault("30s")
        Duration confirmTimeout();
    }

    /** The inbox of {@code @Subscriber(inbox = true)} subscriptions. */
    Inbox inbox();

    interface Inbox {
        /**
         * What identifies a message in the inbox: {@code message-id} (the AMQP property) or {@code header:<name>} (a
         * header's value). A message without one is handled in the transaction as usual, at least once, without an
         * inbox row, and counted (one WARN per subscription every 10 minutes).
         */
        @WithDefault("message-id")
        String key();

        /**
         * {@code create}: the inbox table is created at startup where missing; {@code validate}: startup checks that it
         * exists with the columns it needs; {@code none}: neither (the DDL is in the docs, for Flyway or Liquibase).
         */
        @WithDefault("create")
        InboxSchema schema();

        /** The inbox table's name, schema-qualified if need be. */
        @WithDefault("rabbitmq_subscriber_inbox")
        String table();

        /** The longest a handler's transaction may run; past it the transaction rolls back and the delivery is retried. */
        @WithDefault("60s")
        Duration transactionTimeout();

        /**
         * How long an inbox row is kept: longer than a message may take to come again (every attempt's delay, a
         * replay from a dead-letter queue, a publisher's retry), or a late copy is handled again.
         */
        @WithDefault("7d")
        Duration retention();

        /** Deleting rows older than the retention. */
        Cleanup cleanup();

        interface Cleanup {
            /** How often. */
            @WithDefault("1m")
            Duration interval();

            /** How many rows each transaction deletes. */
            @WithDefault("1000")
            int batchSize();
        }
    }

    /** The outbox of inbox handlers' outputs. */
    Outbox outbox();

    interface Outbox {
        /** The outbox table's name, schema-qualified if need be; created or checked as {@code inbox.schema} says. */
        @WithDefault("rabbitmq_subscriber_outbox")
        String table();

        /** The relay, which publishes what a crash or a refusing broker left in the outbox. */
        Relay relay();

        /**
         * How old the oldest row waiting in the outbox may grow before readiness reports DOWN (the outbox cannot drain:
         * a destination refuses its outputs, say). Read from the relay's passes: without a relay on this instance,
         * never.
         */
        @WithDefault("5m")
        Duration stuckAfter();

        interface Relay {
            /** Whether this instance relays (every instance may: they never take the same rows). */
            @WithDefault("true")
            boolean enabled();

            /** How often it looks for rows, when the last pass did not find a full batch. */
            @WithDefault("1s")
            Duration interval();

            /**
             * How old a group must be before the relay takes it: longer than a publish right after the commit takes, so
             * the relay does not send a group twice that is still being published.
             */
            @WithDefault("10s")
            Duration minAge();

            /** How many groups one pass takes (each pass is one transaction). */
            @WithDefault("100")
            int batchSize();
        }
    }

    enum InboxSchema {
        CREATE,
        VALIDATE,
        NONE
    }

    interface InProcess {
        /**
         * The in-process broker's clock: {@code paused} (time moves only through {@code InProcessBroker.advance}) or
         * {@code wall}. Paused by default in tests, wall otherwise.
         */
        Optional<ClockMode> clock();

        /**
         * The RabbitMQ version whose behaviour the in-process broker follows where versions differ: {@code 3.10},
         * {@code 4} (4.0) or {@code 4.3}. On 4, as RabbitMQ 4.0.5 does: a quorum queue declared without a delivery
         * limit gets 20, a message a quorum queue takes back comes first again, dead letters also carry
         * {@code x-last-death-*}, death headers a publisher sent are not counted on, and a classic queue's type is
         * {@code classic} in refusals. On 4.3, as RabbitMQ 4.3.6 does, also: a quorum queue declared with
         * {@code x-delayed-retry-*} holds a failed delivery back on the virtual clock ({@code @RetryDelay}), deliveries
         * carry {@code x-acquired-count}, a dead letter arrives redelivered, and the delayed-message exchange is
         * refused (the compatibility page lists them).
         */
        @WithDefault("3.10")
        String serverVersion();
    }

    enum BrokerKind {
        RABBITMQ,
        IN_PROCESS,
        AUTO
    }

    enum ClockMode {
        PAUSED,
        WALL
    }

    /**
     * Whether the connections use amqp-client's NIO mode (one I/O thread writes queued frames in batches) rather than its
     * blocking mode (bulk reads; each frame written by the thread that sends it). Unset: the subscribers' connection
     * reads in the blocking mode, which costs a third less CPU per delivered message, unless
     * {@code copy-channel=delivery-channel} has subscribers publish on it; the publisher's connection uses NIO, so that
     * a connection RabbitMQ stops reading during an alarm never blocks a thread that publishes. {@code true} or
     * {@code false} sets both (see the Performance page for the measured trade-off).
     */
    Optional<Boolean> nio();

    /**
     * The largest message body the connections read. amqp-client's own default (64 MiB) is below RabbitMQ's default
     * {@code max_message_size} (128 MiB on 3.x): a message between the two could be published but never read, and
     * each try to deliver it closed the connection. Keep this at least at the broker's {@code max_message_size}, and the
     * heap large enough for the bodies it allows.
     */
    @WithDefault("128M")
    io.quarkus.runtime.configuration.MemorySize maxMessageSize();

    /**
     * The most bytes of message bodies one subscriber holds received and not yet settled (a tenth of the maximum heap
     * by default). RabbitMQ sends up to a prefetch of messages whatever their size, so the prefetch alone bounds no
     * bytes. At the bound the subscriber stops taking deliveries until half of it is settled, then consumes again with
     * the prefetch cut to what the bound holds of the largest body it saw (it grows back while bodies stay small). The
     * first crossing can overshoot by a prefetch of messages: their size is known only once they arrive.
     */
    Optional<io.quarkus.runtime.configuration.MemorySize> maxUnsettledBytes();

    /**
     * Where a subscriber publishes its copies and dead letters. {@code publishing-connection}: on a channel of its own
     * on the publisher's connection, each confirmed before its original is acknowledged; RabbitMQ stops reading a
     * connection that publishes during a memory or disk alarm, and this keeps the subscribers' connection acking then.
     * {@code delivery-channel}: on the delivery's own channel, before its ack (the channel's order makes a
     * {@code DEFAULT} copy safe without a confirm, which is faster), but one retry during an alarm then stalls the acks
     * of every subscriber until it clears.
     */
    @WithDefault("publishing-connection")
    CopyChannel copyChannel();

    enum CopyChannel {
        PUBLISHING_CONNECTION,
        DELIVERY_CHANNEL
    }

    /**
     * How long a queue (not a stream) may keep messages ready, their count never going down, while its subscriber gets
     * nothing and holds nothing unsettled, before the subscriber consumes again on a fresh channel, with a WARN. A quorum
     * queue's consumer has been seen to get nothing more after the queue's leader moved, without any error: this finds
     * it. An idle subscriber's queue is asked its count every half of this (a passive declare; a busy one is not
     * asked). On a queue with a single active consumer, a waiting instance sees the same while the active one is slower
     * than the publishers; consuming again is harmless there, and each repeat doubles the wait (up to 16 times) until a
     * delivery comes. Not watched: streams, and quorum queues that hold failed deliveries back on the server
     * ({@code @RetryDelay}). {@code 0} turns the watch off.
     */
    @WithDefault("60s")
    Duration stallTimeout();

    /**
     * The connection name shown in the RabbitMQ management UI and {@code rabbitmqctl list_connections}.
     */
    @WithDefault("quarkus-rabbitmq-subscriber")
    String connectionName();

    /**
     * This instance's id among the instances that share partitioned subscriptions ({@code @Subscriber(partitions)}):
     * the partitions are dealt over the live instances in the order of their ids. Unset: the host name and a random
     * suffix, new at each start. It needs no configuring: set it only to read it in logs and the Dev UI.
     */
    Optional<String> instanceId();
}
