package io.quarkiverse.rabbitmq.subscriber.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Says in one line, on the build's output, why a test class or test did not run: a broker, a plugin, a database or a
 * cluster that is absent (Surefire only counts them, and keeps the reason in its reports). Registered with
 * {@link java.util.ServiceLoader} for every module whose tests have this artifact.
 */
public final class SkipReporter implements TestExecutionListener {

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        System.out.println("[SKIPPED] " + name(test) + ": " + reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            System.out.println("[SKIPPED] " + name(test) + ": "
                    + result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
    }

    private static String name(TestIdentifier test) {
        String id = test.getUniqueId();
        int classAt = id.indexOf("[class:");
        String className = classAt < 0 ? test.getDisplayName()
                : id.substring(classAt + 7, id.indexOf(']', classAt)).replaceAll(".*\\.", "");
        return test.isContainer() ? className : className + " " + test.getDisplayName();
    }
}
