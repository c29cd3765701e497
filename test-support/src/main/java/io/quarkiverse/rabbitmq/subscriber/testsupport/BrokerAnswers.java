package io.quarkiverse.rabbitmq.subscriber.testsupport;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@code @ExtendWith(BrokerAnswers.class)}: for a test that talks to the broker under test without {@link WireBroker}'s
 * names and clean-up (a packaged application, dev mode): skipped, saying why, where no broker answers, unless
 * {@code -Drabbitmq.test.required=true}. The same probe and the same reason as WireBroker's.
 */
public final class BrokerAnswers implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return WireBroker.answers();
    }
}
