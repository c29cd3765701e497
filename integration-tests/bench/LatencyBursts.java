import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Says what the consumer's JVM did in the seconds of a latency run where many messages were slow: for each second
 * after the warm-up with over a threshold of messages over 1 ms (the "BENCH slow (> 1 ms) by second" line the peers
 * print), the compilations over 5 ms, deoptimizations, collections, safepoints over 1 ms, parks over 2 ms and each
 * second's CPU load of the JVM and of the machine. A burst that meets a compilation or a deoptimization is the JIT's;
 * one that meets nothing on an idle machine is the scheduler's (an idle CPU's wake-up).
 * <p>
 * Record the consumer of one latency run with JFR ({@code JFR=1 latency.sh} passes these options to every
 * application peer), then read the recording with the peer's log:
 *
 * <pre>
 *   java '-XX:StartFlightRecording=filename=run.jfr,jdk.ClassLoad#enabled=true,jdk.ClassLoad#threshold=0ms,
 *       jdk.Compilation#threshold=0ms,jdk.Deoptimization#enabled=true,jdk.ThreadPark#threshold=2ms,
 *       jdk.SafepointBegin#enabled=true,jdk.SafepointBegin#threshold=1ms' ... -jar peer.jar     (one line)
 *   java integration-tests/bench/LatencyBursts.java run.jfr peer.log [min-slow-per-second, 40] [from-second, 8]
 * </pre>
 *
 * The run's first second is taken from the first load of the extension's {@code InboundDelivery} class (its first
 * delivery), or of {@code org.springframework.amqp.core.Message} for Spring's peer.
 */
public class LatencyBursts {

    private static final List<String> FIRST_DELIVERY_CLASSES = List.of(
            "io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery",
            "org.springframework.amqp.core.Message");

    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("Usage: java LatencyBursts.java RECORDING.jfr PEER.log [min-slow-per-second] [from-second]");
            System.exit(2);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(Path.of(args[0]));
        int[] slow = slowBySecond(Files.readString(Path.of(args[1])));
        int threshold = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        int from = args.length > 3 ? Integer.parseInt(args[3]) : 8;

        Instant start = events.stream()
                .filter(e -> e.getEventType().getName().equals("jdk.ClassLoad"))
                .filter(e -> e.getClass("loadedClass") != null
                        && FIRST_DELIVERY_CLASSES.contains(e.getClass("loadedClass").getName()))
                .map(RecordedEvent::getStartTime).min(Comparator.naturalOrder())
                .orElseThrow(() -> new IllegalStateException("No class load of " + FIRST_DELIVERY_CLASSES
                        + " in " + args[0] + ": record with jdk.ClassLoad#enabled=true,jdk.ClassLoad#threshold=0ms"));

        Map<Integer, List<String>> bySecond = new TreeMap<>();
        // Parks over 2 ms by second and thread, as a count and the longest: the pool's threads wait between
        // deliveries, so one by one they say nothing (a handler's thread parked long while deliveries waited would).
        Map<Integer, Map<String, long[]>> parksBySecond = new TreeMap<>();
        // A deoptimization sends a method back to the interpreter; its recompilation (often bigger) follows seconds
        // later, so those of the whole run are listed, not only the bursts'.
        List<String> deoptimizations = new ArrayList<>();
        for (RecordedEvent event : events) {
            double at = Duration.between(start, event.getStartTime()).toNanos() / 1e9;
            if (at < 0 || at >= slow.length) {
                continue;
            }
            String type = event.getEventType().getName();
            if (type.equals("jdk.ThreadPark")) {
                long millis = event.getDuration().toMillis();
                if (millis >= 2) {
                    long[] countAndLongest = parksBySecond.computeIfAbsent((int) at, k -> new TreeMap<>())
                            .computeIfAbsent(thread(event.getThread()), k -> new long[2]);
                    countAndLongest[0]++;
                    countAndLongest[1] = Math.max(countAndLongest[1], millis);
                }
                continue;
            }
            String line = describe(event);
            if (line != null) {
                line = String.format("%7.3f s  %s", at, line);
                (type.equals("jdk.Deoptimization") ? deoptimizations
                        : bySecond.computeIfAbsent((int) at, k -> new ArrayList<>())).add(line);
            }
        }
        System.out.println("slow (> 1 ms) by second: " + java.util.Arrays.toString(slow));
        System.out.println("deoptimizations in the run:");
        deoptimizations.stream().sorted().forEach(System.out::println);
        for (int second = from; second < slow.length; second++) {
            if (slow[second] <= threshold) {
                continue;
            }
            System.out.printf("%n== second %d: %d messages over 1 ms%n", second, slow[second]);
            bySecond.getOrDefault(second, List.of()).stream().sorted().forEach(System.out::println);
            parksBySecond.getOrDefault(second, Map.of()).forEach((thread, c) -> System.out
                    .printf("          parks over 2 ms: %s %d, the longest %d ms%n", thread, c[0], c[1]));
        }
    }

    /** The run's slow messages by second, from the line the peers print. */
    private static int[] slowBySecond(String log) {
        int at = log.indexOf("by second:");
        if (at < 0) {
            throw new IllegalStateException("No \"BENCH slow (> 1 ms) by second:\" line in the peer's log");
        }
        String[] counts = log.substring(at + "by second:".length()).lines().findFirst().orElse("").trim().split("\\s+");
        return java.util.Arrays.stream(counts).mapToInt(Integer::parseInt).toArray();
    }

    /** One line for an event worth setting against a burst, or null. */
    private static String describe(RecordedEvent event) {
        long millis = event.getDuration().toMillis();
        switch (event.getEventType().getName()) {
            case "jdk.Compilation":
                return millis < 5 ? null
                        : String.format("compilation %d ms, level %d, %s (%d bytes inlined)", millis,
                                event.getInt("compileLevel"), method(event.getValue("method")),
                                event.getLong("inlinedBytes"));
            case "jdk.Deoptimization":
                return String.format("deoptimization of %s (%s, line %d)", method(event.getValue("method")),
                        event.getString("reason"), event.getInt("lineNumber"));
            case "jdk.GarbageCollection":
                return String.format("collection %s, %d ms", event.getString("name"), millis);
            case "jdk.SafepointBegin":
                return millis < 1 ? null : String.format("safepoint %d ms", millis);
            case "jdk.CPULoad":
                return String.format("CPU load: JVM %.2f, machine %.2f",
                        event.getFloat("jvmUser") + event.getFloat("jvmSystem"), event.getFloat("machineTotal"));
            default:
                return null;
        }
    }

    private static String method(jdk.jfr.consumer.RecordedMethod method) {
        String type = method.getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + method.getName();
    }

    private static String thread(RecordedThread thread) {
        return thread == null ? "?" : thread.getJavaName();
    }
}
