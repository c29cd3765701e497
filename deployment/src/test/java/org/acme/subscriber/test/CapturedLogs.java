package org.acme.subscriber.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** What the application logs while a test runs, as an operator reads it: level, category, formatted message. */
public final class CapturedLogs extends Handler implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    /** The lines that carry an exception, and so print its stack trace. */
    private final List<String> withStackTraces = new CopyOnWriteArrayList<>();
    private final Logger root = Logger.getLogger("");

    public CapturedLogs() {
        root.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        String line = record.getLevel() + " " + record.getLoggerName() + ": " + format(record);
        lines.add(line);
        if (record.getThrown() != null) {
            withStackTraces.add(line);
        }
    }

    /** Every line, as {@code LEVEL logger: message}. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The lines at ERROR or above (JBoss's ERROR and FATAL, JUL's SEVERE). */
    public List<String> errors() {
        return errorsOf(lines);
    }

    /**
     * Starts capturing before the application starts (in a QuarkusUnitTest's {@code before} hook), for lines logged
     * before a test method could open its own: QuarkusUnitTest loads a test class twice, so the lines and the handler
     * are kept under {@code name} in the system properties, as JDK types both copies can read.
     */
    public static void beginShared(String name) {
        CapturedLogs logs = new CapturedLogs();
        System.getProperties().put(name + ".lines", logs.lines);
        System.getProperties().put(name + ".handler", logs);
    }

    /** The ERROR lines captured since {@link #beginShared} under that name. */
    @SuppressWarnings("unchecked")
    public static List<String> sharedErrors(String name) {
        Object lines = System.getProperties().get(name + ".lines");
        return lines == null ? List.of() : errorsOf((List<String>) lines);
    }

    /** Stops the capture {@link #beginShared} started. */
    public static void endShared(String name) {
        Object handler = System.getProperties().remove(name + ".handler");
        System.getProperties().remove(name + ".lines");
        if (handler instanceof Handler started) {
            Logger.getLogger("").removeHandler(started);
        }
    }

    private static List<String> errorsOf(List<String> lines) {
        return lines.stream().filter(line -> line.startsWith("ERROR ") || line.startsWith("SEVERE ")
                || line.startsWith("FATAL ")).toList();
    }

    /** The lines, at any level, logged with an exception (whose stack trace the log prints). */
    public List<String> withStackTraces() {
        return List.copyOf(withStackTraces);
    }

    public List<String> warnings() {
        return lines.stream().filter(line -> line.startsWith("WARN ") || line.startsWith("WARNING ")).toList();
    }

    public List<String> infos() {
        return lines.stream().filter(line -> line.startsWith("INFO ")).toList();
    }

    private static String format(LogRecord record) {
        String message = record.getMessage();
        Object[] parameters = record.getParameters();
        if (message == null || parameters == null || parameters.length == 0) {
            return String.valueOf(message);
        }
        try {
            // JBoss Logging's xxxf methods are printf-style; the others use {0} placeholders.
            return message.contains("{0") ? java.text.MessageFormat.format(message, parameters)
                    : String.format(message, parameters);
        } catch (RuntimeException e) {
            return message + " " + java.util.Arrays.toString(parameters);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        root.removeHandler(this);
    }

}
