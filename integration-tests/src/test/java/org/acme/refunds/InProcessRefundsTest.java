package org.acme.refunds;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

/**
 * The refunds example on the in-process broker with its clock paused: a busy processor's 30-second back-off passes
 * in no time when the test advances the clock, and the refund comes back then and not before.
 */
@QuarkusTest
@TestProfile(InProcessRefundsTest.InProcess.class)
class InProcessRefundsTest {

    public static class InProcess implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rabbitmq-subscriber.broker", "in-process");
        }
    }

    @Inject
    InProcessBroker broker;

    @Test
    void aBusyRefundComesBackAfterThirtySecondsAndNotBefore() {
        given().contentType(ContentType.JSON).body(List.of("BUSY", "OK")).put("/processor/4242-busy").then()
                .statusCode(204);
        given().contentType(ContentType.JSON).body(Map.of("id", 201, "card", "4242-busy", "amountCents", 990))
                .post("/refunds").then().statusCode(202);
        broker.awaitIdle();
        given().get("/refunds/201/attempts").then().body("attempts", is(1));

        org.junit.jupiter.api.Assertions.assertEquals(1, broker.queue("refunds.retry").depth(),
                "the copy waits in the waiting queue");
        broker.advance(Duration.ofSeconds(29));
        given().get("/refunds/201/attempts").then().body("attempts", is(1));
        given().get("/refunds/processed").then().body("id", not(hasItem(201)));

        broker.advance(Duration.ofSeconds(1));
        given().get("/refunds/201/attempts").then().body("attempts", is(2));
        given().get("/refunds/processed").then().body("id", hasItem(201));
    }

    @Test
    void aDeclinedRefundIsDroppedFromTheQueue() {
        given().contentType(ContentType.JSON).body(List.of("DECLINED")).put("/processor/0000-closed-in-process").then()
                .statusCode(204);
        // Through the payments exchange, as the service's clients publish.
        broker.publish("payments", "refund.requested", Map.of("id", 202, "card", "0000-closed-in-process",
                "amountCents", 5), Map.of());
        broker.awaitIdle();
        given().get("/refunds/declined").then().body("id", hasItem(202));
        org.junit.jupiter.api.Assertions.assertEquals(0, broker.queue("refunds").depth());
    }
}
