package org.acme.refunds;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The packaged example records its refunds in PostgreSQL on localhost:5432: without one there, its tests are skipped
 * saying so, unless {@code -Dpostgres.test.required=true} (which {@code .ci/run} passes) makes that a failure.
 */
public class PostgresAnswers implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 5432), 1000);
            return ConditionEvaluationResult.enabled("PostgreSQL answers on 127.0.0.1:5432");
        } catch (IOException e) {
            if (Boolean.getBoolean("postgres.test.required")) {
                return ConditionEvaluationResult.enabled("required: the test fails without PostgreSQL");
            }
            return ConditionEvaluationResult.disabled("PostgreSQL does not answer on 127.0.0.1:5432 (" + e.getMessage()
                    + "), where the packaged example records its refunds; -Dpostgres.test.required=true makes this a "
                    + "failure");
        }
    }
}
