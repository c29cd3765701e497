package org.acme.refunds;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.quarkiverse.rabbitmq.subscriber.testsupport.BrokerAnswers;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** The refunds example end to end, over HTTP, against the local RabbitMQ. */
@QuarkusTest
@QuarkusTestResource(value = RefundsQueueCleanup.class, restrictToAnnotatedClass = true)
@ExtendWith(BrokerAnswers.class)
class RefundsTest {

    private static void submit(long id, String card) {
        given().contentType(ContentType.JSON).body(Map.of("id", id, "card", card, "amountCents", 1250))
                .post("/refunds").then().statusCode(202);
    }

    private static void script(String card, String... answers) {
        given().contentType(ContentType.JSON).body(List.of(answers)).put("/processor/" + card).then().statusCode(204);
    }

    private static int attempts(long id) {
        return given().get("/refunds/" + id + "/attempts").then().extract().path("attempts");
    }

    @Test
    void metricsShowAtQMetrics() {
        submit(151, "4242-ok");
        await().untilAsserted(() -> given().get("/refunds/processed").then().body("id", hasItem(151)));
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        for (String expected : List.of(
                "quarkus_rabbitmq_subscriber_outcomes_total{broker=\"<default>\",outcome=\"ack\",queue=\"refunds\"}",
                "messaging_client_consumed_messages_total{", "messaging_process_duration_seconds_bucket{",
                "messaging_client_operation_duration_seconds_count{", "quarkus_rabbitmq_subscriber_deliveries_in_flight",
                "quarkus_rabbitmq_subscriber_delayed_pending{broker=\"<default>\",queue=\"payouts\"}")) {
            org.junit.jupiter.api.Assertions.assertTrue(metrics.contains(expected), expected + " in\n" + metrics);
        }
    }

    @Test
    void ledgerLinesAreBookedInBatches() {
        List<Map<String, Object>> lines = new java.util.ArrayList<>();
        for (int i = 0; i < 250; i++) {
            lines.add(Map.of("account", "a-" + (i % 7), "amountCents", -i));
        }
        given().contentType(ContentType.JSON).body(lines).post("/ledger/lines").then().statusCode(202);
        await().untilAsserted(() -> given().get("/ledger/lines").then().body("lines", is(250)));
        int batches = given().get("/ledger/lines").then().extract().path("batches");
        org.junit.jupiter.api.Assertions.assertTrue(batches >= 3 && batches < 250,
                "250 lines in batches of at most 100: " + batches + " calls");
    }

    @Test
    void readinessReportsTheSubscribers() {
        given().get("/q/health/ready").then().statusCode(200).body("status", is("UP"))
                .body("checks.name", hasItem("RabbitMQ subscribers"))
                .body("checks.find { it.name == 'RabbitMQ subscribers' }.data.exchanges", is(3))
                .body("checks.find { it.name == 'RabbitMQ subscribers' }.data.bindings", is(4));
    }

    @Test
    void anAcceptedRefundIsProcessedOnce() {
        submit(101, "4242-ok");
        await().untilAsserted(() -> given().get("/refunds/processed").then().body("id", hasItem(101)));
        given().get("/refunds/101/attempts").then().body("attempts", is(1));
    }

    @Test
    void aRefundRequestedTwiceIsRecordedOnce() {
        // The same refund id is the same message-id: the second delivery finds it in the inbox, and is acked unhandled.
        submit(105, "4242-twice");
        await().untilAsserted(() -> given().get("/refunds/processed").then().body("id", hasItem(105)));
        submit(105, "4242-twice");
        await().until(() -> RefundsCrashIT.counter(given().get("/q/metrics").asString(), "duplicate") == 1);
        given().get("/refunds/processed").then().body("findAll { it.id == 105 }.size()", is(1));
        given().get("/refunds/105/attempts").then().body("attempts", is(1));
        // Its RefundIssued event went through the outbox once.
        await().untilAsserted(() -> given().get("/audit/refunds").then().body("refundId", hasItem(105)));
        given().get("/audit/refunds").then().body("findAll { it.refundId == 105 }.size()", is(1));
    }

    @Test
    void anUnavailableProcessorIsAskedAgain() {
        script("4242-flaky", "UNAVAILABLE", "UNAVAILABLE", "OK");
        submit(102, "4242-flaky");
        await().untilAsserted(() -> given().get("/refunds/processed").then().body("id", hasItem(102)));
        await().until(() -> attempts(102) == 3);
        // Its RefundIssued event left with the third attempt only: once.
        await().untilAsserted(() -> given().get("/audit/refunds").then().body("refundId", hasItem(102)));
        given().get("/audit/refunds").then().body("findAll { it.refundId == 102 }.size()", is(1));
    }

    @Test
    void aDeclinedCardIsDroppedNotRetried() {
        script("0000-closed", "DECLINED");
        submit(103, "0000-closed");
        await().untilAsserted(() -> given().get("/refunds/declined").then().body("id", hasItem(103)));
        await().during(java.time.Duration.ofMillis(300)).atMost(java.time.Duration.ofSeconds(3))
                .until(() -> attempts(103) == 1);
    }

    @Test
    void aRefundThatKeepsFailingLandsInTheDeadLetterQueueAfterFiveDeliveries() {
        script("4242-down", "UNAVAILABLE");
        submit(104, "4242-down");
        await().untilAsserted(() -> given().get("/refunds/dead").then()
                .body("refund.id", hasItem(104)).body("deliveries", hasItem(5))
                .body("routingKey", hasItem("refund.requested")));
        given().get("/refunds/104/attempts").then().body("attempts", is(5));
    }

    @Test
    void aPayoutThatKeepsFailingIsDeadLetteredByTheQuorumQueue() {
        script("5555-down", "UNAVAILABLE");
        given().contentType(ContentType.JSON).body(Map.of("id", 201, "card", "5555-down", "amountCents", 900))
                .post("/payouts").then().statusCode(202);
        await().untilAsserted(() -> given().get("/payouts/dead").then()
                .body("payout.id", hasItem(201)).body("reason", hasItem("delivery_limit")));
        given().get("/payouts/201/attempts").then().body("attempts", is(5));
    }

    @Test
    void aPayoutRequestReachesBothThePayoutsAndTheAuditQueueThroughTheFanout() {
        given().contentType(ContentType.JSON).body(Map.of("id", 202, "card", "5555-ok", "amountCents", 700))
                .post("/payouts").then().statusCode(202);
        await().untilAsserted(() -> given().get("/payouts/paid").then().body("id", hasItem(202)));
        await().untilAsserted(() -> given().get("/audit/payouts").then().body("id", hasItem(202)));
    }
}
