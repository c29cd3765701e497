package io.quarkiverse.rabbitmq.subscriber.deployment.devui;

import io.quarkiverse.rabbitmq.subscriber.deployment.TopologyPlanBuildItem;
import io.quarkiverse.rabbitmq.subscriber.runtime.devui.SubscriberJsonRpcService;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Dev UI card: the subscriptions (their state, pause and resume) with the topology plan and each queue's depth on
 * the broker in use, the dead-letter queues (depth, first messages, replay), and a page
 * for the broker (the in-process one's clock, advancing it, publishing a test message). The pages read everything through
 * {@link SubscriberJsonRpcService}.
 */
public class SubscriberDevUiProcessor {

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    CardPageBuildItem card(TopologyPlanBuildItem topology) {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addBuildTimeData("queues", topology.plan().queues.stream().map(queue -> queue.name).toList());
        card.addPage(Page.webComponentPageBuilder()
                .title("Subscriptions")
                .componentLink("qwc-rabbitmq-subscriber-subscriptions.js")
                .icon("font-awesome-solid:envelopes-bulk")
                .staticLabel(String.valueOf(topology.plan().queues.stream()
                        .filter(queue -> queue.role == TopologyPlan.Role.WORK).count())));
        // Always there: a dead-letter queue named in configuration is planned only at startup.
        card.addPage(Page.webComponentPageBuilder()
                .title("Dead letters")
                .componentLink("qwc-rabbitmq-subscriber-dead-letters.js")
                .icon("font-awesome-solid:skull-crossbones"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Broker")
                .componentLink("qwc-rabbitmq-subscriber-broker.js")
                .icon("font-awesome-solid:clock"));
        return card;
    }

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    JsonRPCProvidersBuildItem jsonRpc() {
        return new JsonRPCProvidersBuildItem(SubscriberJsonRpcService.class);
    }
}
