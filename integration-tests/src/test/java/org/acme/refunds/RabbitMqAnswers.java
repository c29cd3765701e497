package org.acme.refunds;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The example's tests on RabbitMQ need one at 127.0.0.1:5672 (guest/guest): without one there, they are skipped saying
 * so, unless {@code -Drabbitmq.test.required=true} (which {@code .ci/run} passes) makes that a failure. Asked once per
 * run.
 */
public class RabbitMqAnswers implements ExecutionCondition {

    private static volatile String failure;
    private static volatile boolean asked;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String why = failure();
        if (why == null) {
            return ConditionEvaluationResult.enabled("RabbitMQ answers at " + RefundsQueueCleanup.URL);
        }
        if (Boolean.getBoolean("rabbitmq.test.required")) {
            return ConditionEvaluationResult.enabled("required: the test fails without RabbitMQ");
        }
        return ConditionEvaluationResult.disabled("No RabbitMQ answers at 127.0.0.1:5672 (" + why
                + "), where the example's tests run it; -Drabbitmq.test.required=true makes this a failure");
    }

    private static String failure() {
        if (!asked) {
            ConnectionFactory factory = new ConnectionFactory();
            factory.setConnectionTimeout(5_000);
            try {
                factory.setUri(RefundsQueueCleanup.URL);
                try (Connection connection = factory.newConnection("example-tests-probe")) {
                    failure = null;
                }
            } catch (Exception e) {
                failure = String.valueOf(e);
            }
            asked = true;
        }
        return failure;
    }
}
