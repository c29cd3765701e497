package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers;

/**
 * One {@link RabbitPublisher} per broker, each on its broker's own publishing connection: the application's
 * {@code RabbitPublisher} is the default broker's, {@code @Broker("billing") RabbitPublisher} the named one's (the
 * build checks the name); the runtime's held copies and outputs use their subscription's broker's.
 */
@Singleton
public class RabbitPublishers {

    @Inject
    BrokerSessions sessions;

    @Inject
    Codecs codecs;

    @Inject
    SubscriberConfig config;

    @Inject
    PartitionAddresses partitions;

    @Inject
    ApplicationObservers observers;

    /** Satisfied only with {@code outbox.enabled} (and Agroal and JTA): sends inside a transaction go to the outbox. */
    @Inject
    Instance<TransactionalSends> transactionalSends;

    private final Map<String, BrokerRabbitPublisher> publishers = new ConcurrentHashMap<>();

    /** The publisher of a broker by name ({@link Broker#DEFAULT} for the default one); fails for an unknown name. */
    public BrokerRabbitPublisher of(String broker) {
        BrokerRabbitPublisher publisher = publishers.get(broker);
        if (publisher != null) {
            return publisher;
        }
        // Fails, naming the broker, before anything is made for a name that is not configured.
        var session = sessions.of(broker);
        return publishers.computeIfAbsent(broker, name -> new BrokerRabbitPublisher(name, session, codecs, config,
                partitions, observers, transactionalSends, this::of));
    }

    /** The application's {@code RabbitPublisher}: the default broker's. */
    @Produces
    @Singleton
    @Default
    BrokerRabbitPublisher defaultPublisher() {
        return of(Broker.DEFAULT);
    }

    /** {@code @Broker("name") RabbitPublisher}: the named broker's (the value does not bind, so it is read here). */
    @Produces
    @Dependent
    @Broker("")
    RabbitPublisher named(InjectionPoint injectionPoint) {
        for (var qualifier : injectionPoint.getQualifiers()) {
            if (qualifier instanceof Broker broker) {
                return of(broker.value());
            }
        }
        return of(Broker.DEFAULT);
    }
}
