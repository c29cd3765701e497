package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delay;

/** What {@code inbox = true} needs of the application and of each handler. */
class InboxRulesTest {

    static final SubscriberDefinition.ExecutionModel WORKER = SubscriberDefinition.ExecutionModel.WORKER;

    SubscriptionSpec inbox(Delay delay) {
        return SubscriptionSpec.builder("orders").delay(delay).inbox(true).build();
    }

    @Test
    void aWorkerHandlerWithAWaitingQueueIsFine() {
        assertEquals(List.of(), InboxRules.problems("m", inbox(Delay.DLX_TTL), WORKER, true, false, false));
        assertEquals(List.of(), InboxRules.problems("m", inbox(Delay.IN_SERVICE), WORKER, false, false, false),
                "a void handler without a back-off never waits in the service");
    }

    @Test
    void theApplicationNeedsADatasourceThenJtaThenTheNamedOne() {
        assertTrue(InboxRules.applicationProblems(List.of("m"), false, false, false, "<default>", List.of()).get(0)
                .contains("has no JDBC datasource"));
        assertTrue(InboxRules.applicationProblems(List.of("m"), false, true, false, "<default>", List.of("<default>")).get(0)
                .contains("Add quarkus-narayana-jta"));
        assertTrue(InboxRules.applicationProblems(List.of("m"), false, true, true, "<default>", List.of()).get(0)
                .contains("the inbox datasource (the default one) is not configured"));
        assertEquals(List.of(), InboxRules.applicationProblems(List.of("m"), false, true, true, "<default>",
                List.of("<default>")));
        assertEquals(List.of(), InboxRules.applicationProblems(List.of(), false, false, false, "<default>",
                List.of()), "no inbox subscription, nothing needed");
        assertTrue(InboxRules.applicationProblems(List.of(), true, true, false, "<default>", List.of("<default>"))
                .get(0).startsWith("quarkus.rabbitmq-subscriber.outbox.enabled is true: the inbox and the outbox are "
                        + "written in JTA transactions"));
    }

    @Test
    void whatCannotKeepThePromise() {
        List<String> problems = InboxRules.problems("m", inbox(Delay.IN_SERVICE),
                SubscriberDefinition.ExecutionModel.EVENT_LOOP, true, true, false);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("runs on the event loop"), problems.get(0));
        assertTrue(problems.get(1).contains("delay = IN_SERVICE and returns Outcome"), problems.get(1));
    }
}
