package org.acme.nativecheck;

/**
 * The deliberate break of .ci/native-check --break (--break=thread): a library class that starts a thread in its static initializer,
 * and whose jar asks for it to be initialized at build time (META-INF/native-image/.../native-image.properties) and its
 * field to be reachable by reflection (reflect-config.json). A real native build fails on it: a started thread cannot
 * be put in the image heap.
 */
public final class StartedAtBuildTime {

    public static final Thread WORKER = new Thread(StartedAtBuildTime::idle, "native-check-deliberate-break");

    static {
        WORKER.setDaemon(true);
        WORKER.start();
    }

    private StartedAtBuildTime() {
    }

    private static void idle() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
