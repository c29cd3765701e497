package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig.BrokerKind;
import io.quarkus.runtime.LaunchMode;

/** When RabbitMQ is unreachable: auto falls back outside prod mode only, loudly; rabbitmq never falls back. */
class BrokerChoiceTest {

    @Test
    void autoFallsBackInDevAndTestWithAWarningNamingTheAddress() {
        for (LaunchMode mode : new LaunchMode[] { LaunchMode.DEVELOPMENT, LaunchMode.TEST }) {
            String warning = BrokerChoice.fallbackWarning(BrokerKind.AUTO, mode, "amqp://guest:***@localhost:5672",
                    "Connection refused");
            assertTrue(warning.contains("IN-PROCESS"), warning);
            assertTrue(warning.contains("amqp://guest:***@localhost:5672"), warning);
        }
    }

    @Test
    void autoNeverFallsBackInProdMode() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> BrokerChoice
                .fallbackWarning(BrokerKind.AUTO, LaunchMode.NORMAL, "amqp://rabbit:5672", "Connection refused"));
        assertTrue(refused.getMessage().contains("never falls back"), refused.getMessage());
    }

    @Test
    void rabbitmqNeverFallsBack() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> BrokerChoice
                .fallbackWarning(BrokerKind.RABBITMQ, LaunchMode.DEVELOPMENT, "amqp://rabbit:5672", "refused"));
        assertTrue(refused.getMessage().contains("Cannot connect to RabbitMQ at amqp://rabbit:5672"));
    }
}
