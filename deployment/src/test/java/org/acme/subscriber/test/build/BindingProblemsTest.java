package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** Bindings that RabbitMQ would refuse, or that would route nothing as written, fail the build, all at once. */
class BindingProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#fanoutWithKeys(java.lang.String) binds to FANOUT exchange 'b.events' with keys [a.b]: a "
                            + "FANOUT exchange routes without binding keys",
                    "Handlers#headersWithoutMatch(java.lang.String) binds to HEADERS exchange 'b.match' without "
                            + "x-match",
                    "Handlers#headersWithBadMatch(java.lang.String) binds to HEADERS exchange 'b.match' with "
                            + "x-match=some: it must be one of [all, all-with-x, any, any-with-x]",
                    "Handlers#defaultExchange(java.lang.String) binds to the default exchange \"\"",
                    "Handlers#reservedExchange(java.lang.String) binds to exchange 'amq.custom': RabbitMQ reserves",
                    "Handlers#wrongBuiltInType(java.lang.String) binds to exchange 'amq.topic' as DIRECT: RabbitMQ's "
                            + "amq.topic is a TOPIC exchange",
                    "Handlers#notNameValue(java.lang.String) binds to HEADERS exchange 'b.match' with argument "
                            + "'kind', which is not name=value",
                    "Exchange 'b.shared' is bound as DIRECT (queue 'b.bind.direct') and as TOPIC (queue "
                            + "'b.bind.topic'): an exchange has one type"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.bind.fanout", bindings = @Binding(exchange = "b.events", type = ExchangeType.FANOUT, keys = "a.b"))
        void fanoutWithKeys(String body) {
        }

        @Subscriber(value = "b.bind.headers", bindings = @Binding(exchange = "b.match", type = ExchangeType.HEADERS, arguments = "kind=refund"))
        void headersWithoutMatch(String body) {
        }

        @Subscriber(value = "b.bind.headers2", bindings = @Binding(exchange = "b.match", type = ExchangeType.HEADERS, arguments = {
                "x-match=some", "kind=refund" }))
        void headersWithBadMatch(String body) {
        }

        @Subscriber(value = "b.bind.default", bindings = @Binding(exchange = ""))
        void defaultExchange(String body) {
        }

        @Subscriber(value = "b.bind.reserved", bindings = @Binding(exchange = "amq.custom"))
        void reservedExchange(String body) {
        }

        @Subscriber(value = "b.bind.builtin", bindings = @Binding(exchange = "amq.topic", type = ExchangeType.DIRECT))
        void wrongBuiltInType(String body) {
        }

        @Subscriber(value = "b.bind.text", bindings = @Binding(exchange = "b.match", type = ExchangeType.HEADERS, arguments = {
                "x-match=any", "kind" }))
        void notNameValue(String body) {
        }

        @Subscriber(value = "b.bind.direct", bindings = @Binding(exchange = "b.shared", type = ExchangeType.DIRECT))
        void direct(String body) {
        }

        @Subscriber(value = "b.bind.topic", bindings = @Binding(exchange = "b.shared", type = ExchangeType.TOPIC))
        void topic(String body) {
        }
    }
}
