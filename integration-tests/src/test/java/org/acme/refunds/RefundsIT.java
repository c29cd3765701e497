package org.acme.refunds;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The refunds example end to end against the packaged application: the jar here, the native binary under the
 * {@code native} profile where one can be built. Over HTTP only, so the same tests as {@link RefundsTest} (and its
 * queue cleanup, inherited).
 */
@QuarkusIntegrationTest
class RefundsIT extends RefundsTest {
}
