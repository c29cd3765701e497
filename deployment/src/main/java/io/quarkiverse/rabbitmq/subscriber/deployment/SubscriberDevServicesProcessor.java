package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import org.testcontainers.rabbitmq.RabbitMQContainer;
import org.testcontainers.utility.DockerImageName;

import io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDevServicesBuildTimeConfig.DevServices;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig.BrokerKind;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.IsDevServicesSupportedByLaunchMode;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.DevServicesComposeProjectBuildItem;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DevServicesSharedNetworkBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.deployment.builditem.Startable;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.deployment.dev.devservices.RunningContainer;
import io.quarkus.devservices.common.ComposeLocator;
import io.quarkus.devservices.common.ConfigureUtil;
import io.quarkus.devservices.common.ContainerAddress;
import io.quarkus.devservices.common.ContainerLocator;
import io.quarkus.runtime.LaunchMode;
import io.smallrye.config.SmallRyeConfig;

/**
 * Dev Services for the subscribers: a RabbitMQ container in dev and test mode, modelled on Quarkus's
 * {@code RabbitMQDevServicesProcessor} and publishing the same {@code rabbitmq-*} keys, which the runtime falls back to.
 * Everything that makes a container pointless is decided from the configuration first; the container runtime is only
 * probed (and Testcontainers only logs its "Could not find a valid Docker environment") when a container is wanted.
 */
@BuildSteps(onlyIf = { IsDevServicesSupportedByLaunchMode.class, DevServicesConfig.Enabled.class })
public class SubscriberDevServicesProcessor {

    private static final Logger LOG = Logger.getLogger(SubscriberDevServicesProcessor.class);

    static final String URL_KEY = "quarkus.rabbitmq-subscriber.url";
    static final String ADDRESSES_KEY = "quarkus.rabbitmq-subscriber.addresses";
    static final String BROKER_KEY = "quarkus.rabbitmq-subscriber.broker";
    static final String HOST_KEY = "rabbitmq-host";
    static final String PORT_KEY = "rabbitmq-port";
    static final String HTTP_PORT_KEY = "rabbitmq-http-port";
    static final String USERNAME_KEY = "rabbitmq-username";
    static final String PASSWORD_KEY = "rabbitmq-password";
    /** The label Quarkus's RabbitMQ Dev Services put on (and look for on) a shared container. */
    static final String DEV_SERVICE_LABEL = "quarkus-dev-service-rabbitmq";
    /** Present when the application has quarkus-messaging-rabbitmq, whose Dev Services then serve the same keys. */
    static final String QUARKUS_RABBITMQ_CONNECTOR = "io.smallrye.reactive.messaging.rabbitmq.RabbitMQConnector";
    static final String GUEST = "guest";
    static final int AMQP_PORT = 5672;
    static final int HTTP_PORT = 15672;

    private static final ContainerLocator LOCATOR = ContainerLocator.locateContainerWithLabels(AMQP_PORT,
            DEV_SERVICE_LABEL);

    @BuildStep
    DevServicesResultBuildItem rabbitMq(SubscriberDevServicesBuildTimeConfig buildTimeConfig,
            DockerStatusBuildItem dockerStatus, DevServicesComposeProjectBuildItem compose,
            LaunchModeBuildItem launchMode, List<DevServicesSharedNetworkBuildItem> sharedNetwork,
            DevServicesConfig devServicesConfig) {
        // The build-time view of the whole configuration: application.properties, profiles, system properties and
        // environment, runtime keys (url, broker) included, as Quarkus's own Dev Services read rabbitmq-host.
        return devService(buildTimeConfig.devservices(), ConfigProvider.getConfig(),
                QuarkusClassLoader.isClassPresentAtRuntime(QUARKUS_RABBITMQ_CONNECTOR), dockerStatus, compose,
                launchMode.getLaunchMode(),
                DevServicesSharedNetworkBuildItem.isSharedNetworkRequired(devServicesConfig, sharedNetwork));
    }

    /** The build step without its build items, for tests; {@code docker} is probed only when a container is wanted. */
    static DevServicesResultBuildItem devService(DevServices config, Config appConfig, boolean quarkusRabbitMq,
            DockerStatusBuildItem docker, DevServicesComposeProjectBuildItem compose, LaunchMode mode,
            boolean useSharedNetwork) {
        String reason = skipReason(config.enabled(), appConfig, quarkusRabbitMq);
        if (reason != null) {
            LOG.debugf("Not starting Dev Services for RabbitMQ: %s", reason);
            return null;
        }
        if (!docker.isContainerRuntimeAvailable()) {
            // INFO, not WARN: the application still has a broker, and the in-process fallback warns loudly itself.
            LOG.infof("No container runtime works, so Dev Services start no RabbitMQ: the application connects to "
                    + "localhost:5672 if RabbitMQ answers there, else to the in-process broker. Set %s (or "
                    + "%s=in-process) to choose", URL_KEY, BROKER_KEY);
            return null;
        }
        Optional<ContainerAddress> found = LOCATOR.locateContainer(config.serviceName(), config.shared(), mode)
                .or(() -> ComposeLocator.locateContainer(compose, List.of(config.imageName(), "rabbitmq"), AMQP_PORT,
                        mode, useSharedNetwork));
        if (found.isPresent()) {
            ContainerAddress address = found.get();
            RunningContainer running = address.getRunningContainer();
            return DevServicesResultBuildItem.discovered()
                    .feature(SubscriberProcessor.FEATURE)
                    .containerId(address.getId())
                    .config(Map.of(HOST_KEY, address.getHost(), PORT_KEY, String.valueOf(address.getPort()),
                            USERNAME_KEY, running == null ? GUEST : running.tryGetEnv("RABBITMQ_DEFAULT_USER").orElse(GUEST),
                            PASSWORD_KEY, running == null ? GUEST : running.tryGetEnv("RABBITMQ_DEFAULT_PASS").orElse(GUEST)))
                    .build();
        }
        return DevServicesResultBuildItem.owned()
                .feature(SubscriberProcessor.FEATURE)
                .serviceName(config.serviceName())
                .serviceConfig(config)
                .startable(() -> new DevRabbitMq(config, mode == LaunchMode.DEVELOPMENT, compose.getDefaultNetworkId(),
                        useSharedNetwork))
                .postStartHook(container -> LOG.infof("Dev Services for RabbitMQ started: %s (guest/guest)",
                        container.getConnectionInfo()))
                .config(Map.of(USERNAME_KEY, GUEST, PASSWORD_KEY, GUEST))
                .configProvider(Map.of(HOST_KEY, DevRabbitMq::effectiveHost,
                        PORT_KEY, container -> String.valueOf(container.amqpPort()),
                        HTTP_PORT_KEY, container -> String.valueOf(container.httpPort())))
                .build();
    }

    /**
     * Why no container is wanted (for the DEBUG line), or null when one is. Reads configuration only, never the
     * container runtime.
     */
    static String skipReason(boolean enabled, Config config, boolean quarkusRabbitMq) {
        if (!enabled) {
            return "quarkus.rabbitmq-subscriber.devservices.enabled is false";
        }
        // isPropertyPresent: set and non-empty, without expanding ${...} (which may only resolve at run time).
        SmallRyeConfig smallRye = config.unwrap(SmallRyeConfig.class);
        if (smallRye.isPropertyPresent(URL_KEY)) {
            return URL_KEY + " is set";
        }
        if (smallRye.isPropertyPresent(ADDRESSES_KEY)) {
            return ADDRESSES_KEY + " is set";
        }
        if (inProcess(config)) {
            return BROKER_KEY + " is in-process";
        }
        if (smallRye.isPropertyPresent(HOST_KEY) || smallRye.isPropertyPresent(PORT_KEY)) {
            return "rabbitmq-host or rabbitmq-port is set";
        }
        if (quarkusRabbitMq) {
            return "the application has quarkus-messaging-rabbitmq, whose Dev Services provide the broker";
        }
        return null;
    }

    private static boolean inProcess(Config config) {
        try {
            return config.getOptionalValue(BROKER_KEY, BrokerKind.class).orElse(null) == BrokerKind.IN_PROCESS;
        } catch (IllegalArgumentException | NoSuchElementException e) {
            return false; // a value the runtime refuses, with its own message
        }
    }

    /** The container; in dev mode labelled so that other applications' Dev Services find and share it. */
    static final class DevRabbitMq extends RabbitMQContainer implements Startable {

        private final int fixedPort;
        private final boolean useSharedNetwork;
        private final String hostName;

        DevRabbitMq(DevServices config, boolean devMode, String defaultNetworkId, boolean useSharedNetwork) {
            super(DockerImageName.parse(config.imageName()).asCompatibleSubstituteFor("rabbitmq"));
            this.fixedPort = config.port().orElse(0);
            this.useSharedNetwork = useSharedNetwork;
            withExposedPorts(AMQP_PORT, HTTP_PORT);
            if (devMode) {
                withLabel(DEV_SERVICE_LABEL, config.serviceName());
            }
            this.hostName = ConfigureUtil.configureNetwork(this, defaultNetworkId, useSharedNetwork, "rabbitmq");
        }

        @Override
        protected void configure() {
            super.configure();
            if (fixedPort > 0) {
                addFixedExposedPort(fixedPort, AMQP_PORT);
            }
        }

        String effectiveHost() {
            return useSharedNetwork ? hostName : getHost();
        }

        int amqpPort() {
            return useSharedNetwork ? AMQP_PORT : getMappedPort(AMQP_PORT);
        }

        int httpPort() {
            return useSharedNetwork ? HTTP_PORT : getMappedPort(HTTP_PORT);
        }

        @Override
        public String getConnectionInfo() {
            return "amqp://" + effectiveHost() + ":" + amqpPort();
        }

        @Override
        public void close() {
            super.close();
        }
    }
}
