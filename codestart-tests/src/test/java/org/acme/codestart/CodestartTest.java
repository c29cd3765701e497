package org.acme.codestart;

import static io.quarkus.devtools.codestarts.quarkus.QuarkusCodestartCatalog.Language.JAVA;
import static io.quarkus.devtools.testing.SnapshotTesting.checkContains;
import static io.quarkus.devtools.testing.SnapshotTesting.getTextContent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.devtools.codestarts.quarkus.QuarkusCodestartData.QuarkusDataKey;
import io.quarkus.devtools.testing.codestarts.QuarkusCodestartTest;

/**
 * The extension codestart (runtime/src/main/codestarts): the project {@code quarkus create app} generates with the
 * extension, in target/quarkus-codestart-test. Its sources are checked here by content (the generated package is
 * {@code ilove.quark.us}, the test package of codestarts); the build of the generated project, which runs its
 * {@code OrderSubscriberTest}, is {@link #theGeneratedAppPassesItsOwnTest()}.
 */
class CodestartTest {

    private static final String SOURCES = "src/main/java/ilove/quark/us/";
    private static final String TEST_SOURCES = "src/test/java/ilove/quark/us/";
    private static final String EXTENSION_WITH_VERSION = "<artifactId>quarkus-rabbitmq-subscriber</artifactId>"
            + "\\s*<version>([^<]*)</version>";

    @RegisterExtension
    static final QuarkusCodestartTest codestartTest = QuarkusCodestartTest.builder()
            .languages(JAVA)
            .setupStandaloneExtensionTest("io.quarkiverse.rabbitmq-subscriber:quarkus-rabbitmq-subscriber")
            // Quarkus 3.33's minimum, and the starter's Order is a record.
            .putData(QuarkusDataKey.JAVA_VERSION, "17")
            .build();

    @Test
    void theSubscriberHasACapAndADeadLetterQueue() throws Throwable {
        codestartTest.assertThatGeneratedFile(JAVA, SOURCES + "Order.java")
                .satisfies(checkContains("package ilove.quark.us;"))
                .satisfies(checkContains("public record Order(String id, int quantity)"));
        codestartTest.assertThatGeneratedFile(JAVA, SOURCES + "OrderSubscriber.java")
                .satisfies(checkContains("package ilove.quark.us;"))
                .satisfies(checkContains("@Subscriber(value = \"orders\", maxAttempts = 3, deadLetter = \"orders.dead\")"))
                .satisfies(checkContains("return Outcome.ack();"))
                .satisfies(checkContains("return Outcome.retry();"))
                .satisfies(checkContains("@Subscriber(\"orders.dead\")"));
        codestartTest.assertThatGeneratedFile(JAVA, SOURCES + "DeadOrders.java")
                .satisfies(checkContains("package ilove.quark.us;"));
    }

    @Test
    void itsTestRunsOnTheInProcessBroker() throws Throwable {
        codestartTest.assertThatGeneratedFile(JAVA, TEST_SOURCES + "OrderSubscriberTest.java")
                .satisfies(checkContains("package ilove.quark.us;"))
                .satisfies(checkContains("@QuarkusTest"))
                .satisfies(checkContains("import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;"));
        // The codestart's application.yml, written as properties (the default config type).
        codestartTest.assertThatGeneratedFile(JAVA, "src/main/resources/application.properties")
                .satisfies(checkContains("%test.quarkus.rabbitmq-subscriber.broker=in-process"))
                .satisfies(checkContains("%dev.quarkus.rabbitmq-subscriber.broker=auto"));
        codestartTest.assertThatGeneratedFile(JAVA, "README.md")
                .satisfies(checkContains("OrderSubscriberTest"));
    }

    @Test
    void thePomHasTheTestArtifactAtTheExtensionsVersion() throws Throwable {
        codestartTest.assertThatGeneratedFile(JAVA, "pom.xml").satisfies(hasTheTestArtifactAtTheExtensionsVersion());
    }

    /**
     * Generates the project with real data and runs its Maven build ({@code mvnw -B package}), which runs its
     * {@code OrderSubscriberTest} on the in-process broker. That build takes this repository's artifacts from the local
     * Maven repository: this module comes after every one of them in the reactor, so {@code install} has put them there.
     */
    @Test
    void theGeneratedAppPassesItsOwnTest() throws Throwable {
        codestartTest.buildAllProjects();
    }

    private static Consumer<Path> hasTheTestArtifactAtTheExtensionsVersion() {
        return pom -> {
            String content = getTextContent(pom);
            Matcher testArtifact = dependency("quarkus-test-rabbitmq-subscriber").matcher(content);
            assertTrue(testArtifact.find(), "quarkus-test-rabbitmq-subscriber, with a version, in:\n" + content);
            String version = testArtifact.group(1).trim();
            // codestart.yml is filtered when the codestarts jar is built: no ${project.version} is left.
            assertFalse(version.isEmpty() || version.contains("$"), version);
            assertEquals("test", testArtifact.group(2).trim());
            // The extension itself, when the pom gives its version (it is in no BOM): the same.
            Matcher extension = Pattern.compile(EXTENSION_WITH_VERSION).matcher(content);
            if (extension.find()) {
                assertEquals(extension.group(1).trim(), version);
            }
        };
    }

    /** A dependency with this artifactId: its version (group 1) and scope (group 2). */
    private static Pattern dependency(String artifactId) {
        return Pattern.compile("<artifactId>" + Pattern.quote(artifactId)
                + "</artifactId>\\s*<version>([^<]*)</version>\\s*<scope>([^<]*)</scope>");
    }
}
