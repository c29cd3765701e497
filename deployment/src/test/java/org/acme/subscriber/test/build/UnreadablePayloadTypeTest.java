package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A payload type no codec can read fails the build, naming the method: an interface and an abstract class Jackson is
 * not told how to create, in an application without a codec bean. One Jackson is told how to create builds.
 */
class UnreadablePayloadTypeTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Shape.class, Vehicle.class, Animal.class,
                    Cat.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#shape(org.acme.subscriber.test.build.UnreadablePayloadTypeTest$Shape) takes a payload of "
                            + "type org.acme.subscriber.test.build.UnreadablePayloadTypeTest$Shape that no codec can "
                            + "read: JSON cannot create an interface",
                    "Handlers#vehicle(org.acme.subscriber.test.build.UnreadablePayloadTypeTest$Vehicle) takes a payload "
                            + "of type org.acme.subscriber.test.build.UnreadablePayloadTypeTest$Vehicle that no codec can "
                            + "read: JSON cannot create an abstract class",
                    "the application has no PayloadCodec bean that could")
                    .andThen(failure -> assertFalse(Failures.render(failure).contains("Handlers#animal"),
                            "Jackson is told how to create an Animal")));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    interface Shape {
        double area();
    }

    abstract static class Vehicle {
        abstract int wheels();
    }

    /** Jackson is told which class to create from the "kind" property: readable. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
    @JsonSubTypes(@JsonSubTypes.Type(value = Cat.class, name = "cat"))
    interface Animal {
    }

    record Cat(String name) implements Animal {
    }

    static class Handlers {
        @Subscriber("b.unreadable.shape")
        void shape(Shape shape) {
        }

        @Subscriber("b.unreadable.vehicle")
        void vehicle(Vehicle vehicle) {
        }

        @Subscriber("b.readable.animal")
        void animal(Animal animal) {
        }
    }
}
