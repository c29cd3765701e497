import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The latency benchmark's view of the acks (bench/latency.sh, ACK=1): a relay between a consumer and RabbitMQ that
 * reads the AMQP frames passing through it and, for each delivery of a stamped message, measures how long after its
 * publish the consumer's {@code basic.ack} covering it came by (the publisher wrote its wall-clock time into the
 * body's first 8 bytes, on the same machine). A multiple ack settles every earlier delivery of its channel at once.
 * No library offers a hook that the extension's peer and Spring's would both take the same way, so the relay stands
 * outside both: it measures them alike, and adds its own hop (on the broker's core) to both.
 * <p>
 * Once {@code expected} deliveries were acked it prints "BENCH ack latency µs p50 .. p99 .. p99.9 .. max .." over all
 * but the first {@code skip-percent} of them (the same span the peers' own record measures), then keeps relaying.
 *
 * <pre>
 *   java AckTap.java &lt;listen port&gt; &lt;RabbitMQ port&gt; &lt;expected&gt; [skip-percent]
 * </pre>
 */
public final class AckTap {

    private static final int FRAME_METHOD = 1;
    private static final int FRAME_BODY = 3;
    private static final int FRAME_END = 0xCE;
    private static final int BASIC = 60;
    private static final int BASIC_DELIVER = 60;
    private static final int BASIC_ACK = 80;
    private static final int BASIC_REJECT = 90;
    private static final int BASIC_NACK = 120;
    private static final int CHANNEL = 20;
    private static final int CHANNEL_CLOSE = 40;
    private static final int CHANNEL_CLOSE_OK = 41;

    private final int expected;
    private final int skip;
    private final long[] micros;
    private final AtomicInteger acked = new AtomicInteger();

    private AckTap(int expected, int skipPercent) {
        this.expected = expected;
        this.skip = expected * skipPercent / 100;
        this.micros = new long[expected];
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: AckTap <listen port> <RabbitMQ port> <expected> [skip-percent]");
            System.exit(2);
        }
        int listen = Integer.parseInt(args[0]);
        int upstream = Integer.parseInt(args[1]);
        AckTap tap = new AckTap(Integer.parseInt(args[2]), args.length > 3 ? Integer.parseInt(args[3]) : 10);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(listen, 50, loopback)) {
            System.out.println("AckTap relaying 127.0.0.1:" + listen + " to 127.0.0.1:" + upstream);
            for (;;) {
                Socket client = server.accept();
                Socket broker = new Socket(loopback, upstream);
                client.setTcpNoDelay(true);
                broker.setTcpNoDelay(true);
                // A connection's channels and their unacked stamps, shared by its two directions.
                Map<Integer, ConcurrentNavigableMap<Long, Long>> stamps = new ConcurrentHashMap<>();
                start(() -> tap.relay(client, broker, true, stamps), client, broker);
                start(() -> tap.relay(broker, client, false, stamps), client, broker);
            }
        }
    }

    private interface Relay {
        void run() throws IOException;
    }

    private static void start(Relay relay, Socket a, Socket b) {
        Thread thread = new Thread(() -> {
            try {
                relay.run();
            } catch (IOException e) {
                // The connection ended (the consumer stopped or the broker closed it): close both sides.
            } finally {
                closeQuietly(a);
                closeQuietly(b);
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    /** Copies frames from one side to the other, reading deliveries (from the broker) or acks (from the client). */
    private void relay(Socket from, Socket to, boolean fromClient, Map<Integer, ConcurrentNavigableMap<Long, Long>> stamps)
            throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(from.getInputStream(), 65536));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(to.getOutputStream(), 65536));
        if (fromClient) {
            // The protocol header, "AMQP" 0 0 9 1, before any frame.
            byte[] header = new byte[8];
            in.readFully(header);
            out.write(header);
            out.flush();
        }
        // The delivery tag of each channel's last basic.deliver, until its body comes.
        Map<Integer, Long> pending = new ConcurrentHashMap<>();
        byte[] payload = new byte[0];
        for (;;) {
            int type = in.read();
            if (type < 0) {
                throw new EOFException();
            }
            int channel = in.readUnsignedShort();
            int size = in.readInt();
            if (payload.length < size) {
                payload = new byte[size];
            }
            in.readFully(payload, 0, size);
            int end = in.readUnsignedByte();
            if (end != FRAME_END) {
                throw new IOException("not an AMQP 0-9-1 frame end: " + end);
            }
            ByteBuffer frame = ByteBuffer.wrap(payload, 0, size);
            if (type == FRAME_METHOD && (is(frame, CHANNEL, CHANNEL_CLOSE) || is(frame, CHANNEL, CHANNEL_CLOSE_OK))) {
                // A channel number used again starts its delivery tags at 1: forget what the closed one left.
                stamps.remove(channel);
                pending.remove(channel);
            } else if (fromClient) {
                if (type == FRAME_METHOD && is(frame, BASIC, BASIC_ACK)) {
                    long tag = frame.getLong();
                    boolean multiple = (frame.get() & 1) != 0;
                    settled(stamps.get(channel), tag, multiple, true);
                } else if (type == FRAME_METHOD && is(frame, BASIC, BASIC_NACK)) {
                    long tag = frame.getLong();
                    settled(stamps.get(channel), tag, (frame.get() & 1) != 0, false);
                } else if (type == FRAME_METHOD && is(frame, BASIC, BASIC_REJECT)) {
                    settled(stamps.get(channel), frame.getLong(), false, false);
                }
            } else if (type == FRAME_METHOD && is(frame, BASIC, BASIC_DELIVER)) {
                frame.position(frame.position() + 1 + (frame.get(frame.position()) & 0xFF)); // consumer tag
                pending.put(channel, frame.getLong());
            } else if (type == FRAME_BODY && size >= 8) {
                Long tag = pending.remove(channel);
                if (tag != null) {
                    // Before the body goes on: the ack for it cannot come back before it is recorded.
                    stamps.computeIfAbsent(channel, c -> new ConcurrentSkipListMap<>()).put(tag, frame.getLong());
                }
            }
            out.writeByte(type);
            out.writeShort(channel);
            out.writeInt(size);
            out.write(payload, 0, size);
            out.writeByte(FRAME_END);
            // Flush when nothing more has come in: frames that came together leave together.
            if (in.available() == 0) {
                out.flush();
            }
        }
    }

    private static boolean is(ByteBuffer frame, int classId, int method) {
        if (frame.remaining() < 4 || frame.getShort(frame.position()) != classId
                || frame.getShort(frame.position() + 2) != method) {
            return false;
        }
        frame.position(frame.position() + 4);
        return true;
    }

    /**
     * The deliveries a frame settled: timed when it acks them, forgotten when it rejects them (a later multiple ack
     * must not count them). Tag 0 with {@code multiple} settles every delivery outstanding on the channel.
     */
    private void settled(ConcurrentNavigableMap<Long, Long> channel, long tag, boolean multiple, boolean ack) {
        if (channel == null) {
            return;
        }
        Instant now = Instant.now();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        if (multiple) {
            ConcurrentNavigableMap<Long, Long> covered = tag == 0 ? channel : channel.headMap(tag, true);
            for (Long sent : covered.values()) {
                if (ack) {
                    record((nanos - sent) / 1_000);
                }
            }
            covered.clear();
        } else {
            Long sent = channel.remove(tag);
            if (sent != null && ack) {
                record((nanos - sent) / 1_000);
            }
        }
    }

    private void record(long latencyMicros) {
        int n = acked.getAndIncrement();
        if (n < expected) {
            micros[n] = latencyMicros;
        }
        if (n == expected - 1) {
            long[] measured = Arrays.copyOfRange(micros, skip, expected);
            Arrays.sort(measured);
            System.out.printf("BENCH ack latency µs p50 %d p99 %d p99.9 %d max %d (%d messages)%n", at(measured, 0.50),
                    at(measured, 0.99), at(measured, 0.999), measured[measured.length - 1], measured.length);
            System.out.flush();
        }
    }

    private static long at(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)];
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed by the other direction.
        }
    }
}
