package io.quarkiverse.rabbitmq.subscriber.testsupport;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Holds a resource that test classes in other JVMs must not use at the same time (the tests run in two JVMs that take
 * the classes in turn): a file lock, taken before the class's application starts and given back after it stopped.
 * Register it before the application's extension:
 *
 * <pre>
 * &#64;RegisterExtension
 * &#64;Order(0)
 * static final ExclusiveResource cluster = ExclusiveResource.named("cluster");
 * </pre>
 *
 * For what only a few classes share (the three-node cluster, dev mode's HTTP port); what every class shares (the
 * broker's memory alarm, its consumer timeout) is for the tests tagged {@code serial}, which run alone.
 */
public final class ExclusiveResource implements BeforeAllCallback, AfterAllCallback {

    private final String name;
    private FileChannel channel;
    private FileLock lock;

    private ExclusiveResource(String name) {
        this.name = name;
    }

    public static ExclusiveResource named(String name) {
        return new ExclusiveResource(name);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "rabbitmq-subscriber-tests-" + name + ".lock");
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        // Waits while a class in another JVM holds it.
        lock = channel.lock();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        try {
            if (lock != null) {
                lock.release();
            }
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
    }
}
