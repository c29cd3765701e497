package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream;

/**
 * The in-process broker's streams ({@code x-queue-type=stream}) and super streams (an exchange whose bindings order its
 * partition streams): append-only logs whose messages stay after they are
 * read, each at its offset (0 for the first), with the time it was written on the broker's clock; the offsets readers
 * stored, by stream and name; and the readers, each sent the messages from its position on, a bounded number at a time
 * (a message is processed once its subscription settled it), as the stream protocol's credits bound them. As RabbitMQ
 * does: a reader with a stored offset starts after it whatever it asked for, and a filtered reader gets only messages
 * whose filter value is one of its own (RabbitMQ's Bloom filter may let others through, which readers drop; this one
 * lets none through). Server thread only, but for {@link #read}, {@link Reader#store} and {@link Reader#close}, which
 * post to it.
 */
final class ServerStreams implements StreamReading {

    /** Messages a reader holds unprocessed at most: about what the client's two chunks of credit give. */
    static final int CREDIT = 256;

    private record Entry(long offset, long writtenAt, AMQP.BasicProperties properties, byte[] body, String filterValue) {
    }

    private static final class Log {
        final String stream;
        final List<Entry> entries = new ArrayList<>();
        final Map<String, Long> stored = new HashMap<>();
        final List<Reader> readers = new ArrayList<>();

        Log(String stream) {
            this.stream = stream;
        }
    }

    private final class Reader implements StreamReading.Reader {
        final Log log;
        final Set<String> filter;
        final Handler handler;
        final String name;
        long next;
        int outstanding;
        boolean closed;

        Reader(Log log, String name, Set<String> filter, Handler handler, long next) {
            this.log = log;
            this.name = name;
            this.filter = filter;
            this.handler = handler;
            this.next = next;
        }

        @Override
        public void store(String stream, long offset) {
            server.post(() -> log.stored.merge(name, offset, Math::max));
        }

        @Override
        public void close() {
            server.post(this::closeNow);
        }

        @Override
        public long lastOffset(String stream) {
            return ServerStreams.this.lastOffset(stream);
        }

        @Override
        public boolean exists(String stream) {
            return ServerStreams.this.exists(stream);
        }

        void closeNow() {
            closed = true;
            log.readers.remove(this);
            // What it still held is read again by whoever reads next: nothing of it is settled.
            server.thread.unackedChanged(-outstanding);
            outstanding = 0;
        }

        void processed() {
            server.post(() -> {
                if (!closed && outstanding > 0) {
                    outstanding--;
                    server.thread.unackedChanged(-1);
                    send(this);
                }
            });
        }
    }

    private final InProcessServer server;
    private final Map<String, Log> logs = new LinkedHashMap<>();

    ServerStreams(InProcessServer server) {
        this.server = server;
    }

    /** A stream was declared: its log, empty. */
    void declared(String stream) {
        logs.putIfAbsent(stream, new Log(stream));
    }

    /** A stream was deleted: its messages and stored offsets go; its readers hear nothing more. */
    void deleted(String stream) {
        Log log = logs.remove(stream);
        if (log != null) {
            for (Reader reader : List.copyOf(log.readers)) {
                reader.closed = true;
                server.thread.unackedChanged(-reader.outstanding);
            }
            log.readers.clear();
        }
        // A single active consumer of it is told it no longer is, as RabbitMQ's stream client tells one.
        for (Group group : groups.values()) {
            for (Member member : group.members) {
                Reader reader = member.partitions.remove(stream);
                if (reader != null) {
                    member.handler.activity(stream, false);
                }
            }
        }
    }

    /** A message written to the stream: at the end of its log, then sent to its readers. */
    void append(String stream, AMQP.BasicProperties properties, byte[] body) {
        Log log = logs.get(stream);
        if (log == null) {
            return;
        }
        Object value = properties.getHeaders() == null ? null : properties.getHeaders().get(FILTER_VALUE);
        log.entries.add(new Entry(log.entries.size(), server.clock().millis(), properties, body,
                value == null ? null : value.toString()));
        List.copyOf(log.readers).forEach(this::send);
    }

    @Override
    public StreamReading.Reader read(String stream, String name, Start start, Set<String> filter, boolean singleActive,
            Handler handler) {
        try {
            return server.call(() -> {
                Log log = logs.get(stream);
                if (log == null) {
                    throw new IllegalStateException("Stream '" + stream + "' does not exist on the in-process broker: "
                            + "declare it (quarkus.rabbitmq-subscriber.declare-topology=true declares it as type = "
                            + "QueueType.STREAM), or check its name");
                }
                if (singleActive) {
                    // As a super stream of one partition: the first consumer of the name reads it, then the next.
                    return join("stream:" + stream + "|" + name, name, List.of(stream), start, filter, handler);
                }
                Long stored = log.stored.get(name);
                Reader reader = new Reader(log, name, Set.copyOf(filter), handler,
                        stored != null ? stored + 1 : position(log, start));
                log.readers.add(reader);
                send(reader);
                return reader;
            });
        } catch (BrokerException e) {
            throw new IllegalStateException("Could not read stream '" + stream + "': " + e.getMessage(), e);
        }
    }

    /**
     * A consumer of a super stream: the readers of the partitions it is the active consumer of. As RabbitMQ does, of the
     * consumers of one name on a super stream, in the order they came, the active consumer of partition {@code i} is
     * the one at {@code i} modulo their number; when one comes or goes, each partition whose active consumer changes
     * is taken from the one (its reader closed, what it held read again by the other) and given to the other, which
     * reads it after the offset stored under the name.
     */
    private final class Member implements StreamReading.Reader {
        final Group group;
        final Start start;
        final Set<String> filter;
        final Handler handler;
        final Map<String, Reader> partitions = new HashMap<>();

        Member(Group group, Start start, Set<String> filter, Handler handler) {
            this.group = group;
            this.start = start;
            this.filter = filter;
            this.handler = handler;
        }

        @Override
        public void store(String partition, long offset) {
            server.post(() -> {
                Log log = logs.get(partition);
                if (log != null) {
                    log.stored.merge(group.name, offset, Math::max);
                }
            });
        }

        @Override
        public long lastOffset(String partition) {
            return ServerStreams.this.lastOffset(partition);
        }

        @Override
        public boolean exists(String partition) {
            return ServerStreams.this.exists(partition);
        }

        @Override
        public void close() {
            server.post(() -> {
                if (group.members.remove(this)) {
                    partitions.values().forEach(Reader::closeNow);
                    partitions.clear();
                    rebalance(group);
                }
            });
        }
    }

    /** The consumers of one name on one super stream, in the order they came. */
    private static final class Group {
        final String name;
        final List<String> partitions;
        final List<Member> members = new ArrayList<>();

        Group(String name, List<String> partitions) {
            this.name = name;
            this.partitions = partitions;
        }
    }

    private final Map<String, Group> groups = new HashMap<>();

    @Override
    public StreamReading.Reader readSuperStream(String superStream, String name, Start start, Set<String> filter,
            Handler handler) {
        try {
            return server.call(() -> join("super:" + superStream + "|" + name, name, partitions(superStream), start,
                    filter, handler));
        } catch (BrokerException e) {
            throw new IllegalStateException("Could not read super stream '" + superStream + "': " + e.getMessage(), e);
        }
    }

    /** A new member of a group of single active consumers, given its share of the partitions. Server thread. */
    private Member join(String key, String name, List<String> partitions, Start start, Set<String> filter,
            Handler handler) {
        Group group = groups.computeIfAbsent(key, ignored -> new Group(name, partitions));
        Member member = new Member(group, start, Set.copyOf(filter), handler);
        group.members.add(member);
        rebalance(group);
        return member;
    }

    /** The partition streams bound to the super stream's exchange, in their order ({@code x-stream-partition-order}). */
    private List<String> partitions(String superStream) {
        ServerExchange exchange = server.routing.exchange(superStream);
        List<ServerExchange.Binding> bindings = exchange == null ? List.of()
                : exchange.bindings.stream().filter(binding -> logs.containsKey(binding.queue().name)).toList();
        if (bindings.isEmpty()) {
            throw new IllegalStateException("Super stream '" + superStream + "' does not exist on the in-process "
                    + "broker: declare it (quarkus.rabbitmq-subscriber.declare-topology=true declares it as type = "
                    + "QueueType.STREAM with partitions), or check its name");
        }
        return bindings.stream().sorted(java.util.Comparator.comparingLong(binding -> order(binding.arguments())))
                .map(binding -> binding.queue().name).distinct().toList();
    }

    private static long order(Map<String, Object> arguments) {
        return arguments != null && arguments.get(SuperStream.PARTITION_ORDER) instanceof Number number ? number.longValue()
                : Long.MAX_VALUE;
    }

    /** Gives each partition of the group to the member RabbitMQ would make its active consumer. */
    private void rebalance(Group group) {
        for (int index = 0; index < group.partitions.size(); index++) {
            String partition = group.partitions.get(index);
            Member wanted = group.members.isEmpty() ? null : group.members.get(index % group.members.size());
            for (Member member : group.members) {
                if (member != wanted && member.partitions.containsKey(partition)) {
                    member.partitions.remove(partition).closeNow();
                    member.handler.activity(partition, false);
                }
            }
            Log log = logs.get(partition);
            if (wanted != null && log != null && !wanted.partitions.containsKey(partition)) {
                Long stored = log.stored.get(group.name);
                Reader reader = new Reader(log, group.name, wanted.filter, wanted.handler,
                        stored != null ? stored + 1 : position(log, wanted.start));
                wanted.partitions.put(partition, reader);
                wanted.handler.activity(partition, true);
                log.readers.add(reader);
                send(reader);
            }
        }
    }

    private boolean exists(String stream) {
        try {
            return server.call(() -> logs.containsKey(stream));
        } catch (BrokerException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The last offset of {@code stream}'s log: each message is a chunk of its own here. */
    private long lastOffset(String stream) {
        try {
            return server.call(() -> {
                Log log = logs.get(stream);
                return log == null ? -1L : log.entries.size() - 1L;
            });
        } catch (BrokerException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Where a reader without a stored offset starts. */
    private static long position(Log log, Start start) {
        int length = log.entries.size();
        return switch (start.kind()) {
            case FIRST -> 0;
            // The last chunk: here each message is a chunk of its own.
            case LAST -> Math.max(0, length - 1);
            case NEXT -> length;
            case OFFSET -> Math.min(start.value(), length);
            case TIMESTAMP -> log.entries.stream().filter(entry -> entry.writtenAt() >= start.value()).findFirst()
                    .map(Entry::offset).orElse((long) length);
        };
    }

    /** Sends the reader what it may hold from its position on. */
    private void send(Reader reader) {
        List<Entry> entries = reader.log.entries;
        while (!reader.closed && reader.next < entries.size() && reader.outstanding < CREDIT) {
            Entry entry = entries.get((int) reader.next++);
            if (!reader.filter.isEmpty() && (entry.filterValue() == null || !reader.filter.contains(entry.filterValue()))) {
                continue;
            }
            reader.outstanding++;
            server.thread.unackedChanged(1);
            reader.handler.message(reader.log.stream, entry.offset(), entry.properties(), entry.body(),
                    entry.filterValue(), reader::processed);
        }
    }
}
