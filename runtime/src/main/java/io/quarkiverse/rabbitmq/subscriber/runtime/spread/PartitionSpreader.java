package io.quarkiverse.rabbitmq.subscriber.runtime.spread;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;

/**
 * Spreads the partitions of one partitioned subscription over the live instances of the service, on brokers whose
 * single active consumer honours consumer priorities (quorum queues on RabbitMQ 4): every instance beats on the fanout
 * exchange {@code <subscription>.members} (each reads the beats through an exclusive queue of its own), and at each
 * beat claims the partitions {@link PartitionMembers} deals it by consuming them again with a priority above every other
 * claim. RabbitMQ then makes it the partition's active consumer once the one before has settled what it holds, so a
 * partition changes hands without two instances handling it at once.
 * <p>
 * A new instance listens for a liveness window before its first claim: it learns who is there first, and does not
 * claim everything for a moment. So does one that stopped hearing its own beats (a cut took its exclusive queue), on a
 * fresh queue. One that stops says so in a last beat; one that crashes is gone after the window,
 * and RabbitMQ has made another consumer active already (the highest claim left), so its partitions are never
 * without a consumer meanwhile.
 */
public final class PartitionSpreader {

    private static final Logger LOG = Logger.getLogger(PartitionSpreader.class);

    /** How often each instance beats. */
    static final Duration BEAT = Duration.ofSeconds(2);
    /** An instance not heard for this long is gone. */
    static final Duration LIVENESS = BEAT.multipliedBy(3);
    private static final String LEAVING = "x-leaving";

    private final String subscription;
    private final String self;
    private final List<SubscriberSupervisor> partitions;
    private final Supplier<BrokerConnection> connection;
    private final Clock clock;
    private final Executor pool;
    private final PartitionMembers members;
    /** This instance's claims: partition to the priority it consumes it with. Written under {@code this}. */
    private final Map<Integer, Integer> mine = new java.util.concurrent.ConcurrentSkipListMap<>();
    /** Since when it listens on the beats' current queue: it claims nothing in its first liveness window. */
    private long listeningSince;
    /** Guarded by {@code this}. */
    private BrokerChannel channel;
    private Clock.Timer next;
    private volatile boolean stopped;
    /** Whether the last beat failed (the WARN was said). Beats run one at a time. */
    private boolean failing;

    /**
     * @param subscription the partitioned subscription's name (its exchange's)
     * @param self this instance's id, unique among the instances
     * @param partitions the supervisors of its partitions, partition 0 first
     * @param connection the subscribers' connection
     * @param pool where the beats run (they wait for the broker)
     */
    public PartitionSpreader(String subscription, String self, List<SubscriberSupervisor> partitions,
            Supplier<BrokerConnection> connection, Clock clock, Executor pool) {
        this.subscription = subscription;
        this.self = self;
        this.partitions = List.copyOf(partitions);
        this.connection = connection;
        this.clock = clock;
        this.pool = pool;
        this.members = new PartitionMembers(self, partitions.size(), LIVENESS.toMillis());
    }

    /** The exchange the instances of {@code subscription} beat on. */
    public static String membersExchange(String subscription) {
        return subscription + ".members";
    }

    public void start() {
        pool.execute(this::beat);
    }

    /** The partitions this instance claims and no live instance outbids: where it is, or is about to be, active. */
    public List<Integer> claimed() {
        synchronized (members) {
            return mine.entrySet().stream()
                    .filter(claim -> claim.getValue() > members.highestOtherClaim(claim.getKey()))
                    .map(Map.Entry::getKey).toList();
        }
    }

    /** The live instances, this one included, as this one knows them. */
    public List<String> live() {
        synchronized (members) {
            return members.live(clock.millis());
        }
    }

    private void beat() {
        if (stopped) {
            return;
        }
        try {
            synchronized (this) {
                BrokerChannel open = open();
                long now = clock.millis();
                boolean deaf = false;
                if (now - listeningSince >= LIVENESS.toMillis()) {
                    Map<Integer, Integer> toMake;
                    synchronized (members) {
                        // Its own beats stopped coming back: a cut took its exclusive queue while amqp-client recovered
                        // the channel. It claims nothing on what it knows, and listens again on a fresh queue.
                        deaf = !members.hearsItself(now);
                        toMake = deaf ? Map.of() : members.claimsToMake(mine, now);
                    }
                    toMake.forEach((partition, priority) -> {
                        mine.put(partition, priority);
                        partitions.get(partition).claim(priority);
                    });
                    if (!toMake.isEmpty()) {
                        LOG.infof("'%s': this instance (%s) takes over partition(s) %s of %d, live instances %s",
                                subscription, self, toMake.keySet(), partitions.size(), live());
                    }
                }
                // After the claims: the others learn of them now, not a beat later.
                open.publish(membersExchange(subscription), "", false, beatProperties(false), body());
                if (deaf) {
                    LOG.infof("'%s': this instance no longer hears the beats (its queue went with a cut connection): "
                            + "it listens again on a fresh queue", subscription);
                    channel.close();
                    channel = null;
                }
            }
            if (failing) {
                failing = false;
                LOG.infof("'%s': this instance beats on exchange '%s' again", subscription,
                        membersExchange(subscription));
            }
        } catch (Exception e) {
            // The connection is down, or the channel was closed: the next beat opens another. Said once per streak:
            // while it lasts the partitions stay with the instances active on them (a refused permission lasts).
            if (!failing) {
                failing = true;
                // A refusal lasts until an operator grants the permissions; anything else (a cut, a closed channel)
                // passes with the connection's recovery.
                boolean refused = e instanceof BrokerException refusal
                        && refusal.replyCode() == BrokerException.ACCESS_REFUSED;
                LOG.warnf("'%s': this instance cannot beat on exchange '%s' (%s): until it can, it takes no partition "
                        + "over and the others do not know it; %s", subscription, membersExchange(subscription),
                        e.getMessage() != null ? e.getMessage() : e.toString(),
                        refused ? "it needs the configure, write and read permissions on that exchange and on a "
                                + "server-named queue of its own"
                                : "it beats again once the connection is back");
            } else {
                LOG.debugf("'%s': the partitions' beat failed again: %s", subscription, e);
            }
            synchronized (this) {
                if (channel != null) {
                    channel.close();
                    channel = null;
                }
            }
        }
        if (!stopped) {
            next = clock.schedule(BEAT, () -> pool.execute(this::beat));
        }
    }

    /** The beats' channel, opened with its exchange and this instance's queue when there is none open. */
    private BrokerChannel open() throws Exception {
        if (channel != null && channel.isOpen()) {
            return channel;
        }
        BrokerChannel opened = connection.get().createChannel();
        try {
            String exchange = membersExchange(subscription);
            opened.declareExchange(exchange, "fanout", true, false, Map.of());
            String queue = opened.declareQueue("", false, true, true, Map.of()).queue();
            opened.bindQueue(queue, exchange, "", Map.of());
            opened.consumeAutoAck(queue, (tag, envelope, properties, body) -> heard(properties, body));
        } catch (Exception e) {
            opened.close();
            throw e;
        }
        channel = opened;
        listeningSince = clock.millis();
        return opened;
    }

    /** On the client's thread: a beat (or the last beat) of an instance, this one's own included. */
    private void heard(AMQP.BasicProperties properties, byte[] body) {
        String[] lines = new String(body, StandardCharsets.UTF_8).split("\n", -1);
        String id = lines[0];
        synchronized (members) {
            if (properties.getHeaders() != null && properties.getHeaders().containsKey(LEAVING)) {
                members.left(id);
                return;
            }
            Map<Integer, Integer> claims = new TreeMap<>();
            if (lines.length > 1 && !lines[1].isEmpty()) {
                for (String claim : lines[1].split(",")) {
                    int equals = claim.indexOf('=');
                    try {
                        claims.put(Integer.parseInt(claim.substring(0, equals)),
                                Integer.parseInt(claim.substring(equals + 1)));
                    } catch (RuntimeException e) {
                        // Not a beat of this extension's: ignored.
                        return;
                    }
                }
            }
            members.heard(id, claims, clock.millis());
        }
    }

    /** {@code <id>\n<partition>=<priority>,...}. */
    private byte[] body() {
        StringBuilder text = new StringBuilder(self).append('\n');
        mine.forEach((partition, priority) -> text.append(partition).append('=').append(priority).append(','));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static AMQP.BasicProperties beatProperties(boolean leaving) {
        // A beat is worth nothing later than the liveness window.
        return new AMQP.BasicProperties.Builder().expiration(String.valueOf(LIVENESS.toMillis()))
                .headers(leaving ? Map.of(LEAVING, true) : null).build();
    }

    /** Stops beating, and says it leaves: the others deal its partitions at their next beat. Never throws. */
    public void stop() {
        stopped = true;
        Clock.Timer timer = next;
        if (timer != null) {
            timer.cancel();
        }
        synchronized (this) {
            if (channel != null) {
                try {
                    channel.publish(membersExchange(subscription), "", false, beatProperties(true), body());
                } catch (Exception e) {
                    // Gone: the others find out after the liveness window.
                }
                channel.close();
                channel = null;
            }
        }
    }
}
