package org.acme.refunds;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The refunds example end to end against the packaged application: the jar here, the native binary under the
 * {@code native} profile where one can be built. Over HTTP only, so the same tests as {@link RefundsTest} (and its
 * queue cleanup, inherited). It records refunds in PostgreSQL (the tests in process use H2): skipped, saying so, where
 * none answers on localhost:5432.
 */
@QuarkusIntegrationTest
@org.junit.jupiter.api.extension.ExtendWith(PostgresAnswers.class)
class RefundsIT extends RefundsTest {
}
