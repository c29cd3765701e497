package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

/**
 * The headers RabbitMQ writes when it dead-letters a message: an {@code x-death} entry per (queue, reason), counted and
 * moved to the front when it repeats, and the {@code x-first-death-*} headers of the first one; RabbitMQ 4 also writes
 * {@code x-last-death-*} headers of the latest. The message's per-message expiration is removed, and kept in the entry
 * as {@code original-expiration}.
 */
final class DeathHeaders {

    private DeathHeaders() {
    }

    /**
     * @param lastDeath whether to write the {@code x-last-death-*} headers, as RabbitMQ 4 does
     * @param freshDeaths whether death headers a publisher sent are ignored: RabbitMQ 4 keeps a message's deaths
     *        itself, so a copy a client published back with its {@code x-death} starts counting again
     */
    static AMQP.BasicProperties record(ServerMessage message, String queue, String reason, long nowMillis,
            boolean lastDeath, boolean freshDeaths) {
        AMQP.BasicProperties properties = message.properties;
        Map<String, Object> headers = properties.getHeaders() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(properties.getHeaders());
        if (freshDeaths) {
            headers.keySet().removeIf(name -> name.equals("x-death") || name.startsWith("x-first-death-")
                    || name.startsWith("x-last-death-"));
        }
        List<Object> deaths = new ArrayList<>();
        Object existing = headers.get("x-death");
        if (existing instanceof List<?> list) {
            deaths.addAll(list);
        }
        Map<String, Object> entry = null;
        for (int i = 0; i < deaths.size(); i++) {
            if (deaths.get(i) instanceof Map<?, ?> death && queue.equals(String.valueOf(death.get("queue")))
                    && reason.equals(String.valueOf(death.get("reason")))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> found = new LinkedHashMap<>((Map<String, Object>) death);
                entry = found;
                deaths.remove(i);
                break;
            }
        }
        if (entry == null) {
            entry = new LinkedHashMap<>();
            entry.put("count", 1L);
            entry.put("reason", reason);
            entry.put("queue", queue);
            entry.put("exchange", message.exchange);
            entry.put("routing-keys", new ArrayList<Object>(message.routingKeys));
        } else {
            entry.put("count", ((Number) entry.get("count")).longValue() + 1);
        }
        // Timestamps travel in whole seconds.
        entry.put("time", new Date(nowMillis / 1000 * 1000));
        if (properties.getExpiration() != null) {
            entry.put("original-expiration", properties.getExpiration());
        }
        deaths.add(0, entry);
        headers.put("x-death", deaths);
        headers.putIfAbsent("x-first-death-reason", reason);
        headers.putIfAbsent("x-first-death-queue", queue);
        headers.putIfAbsent("x-first-death-exchange", message.exchange);
        if (lastDeath) {
            headers.put("x-last-death-reason", reason);
            headers.put("x-last-death-queue", queue);
            headers.put("x-last-death-exchange", message.exchange);
        }
        return properties.builder().headers(headers).expiration(null).build();
    }

    /** Whether dead-lettering into {@code target} would close a cycle RabbitMQ drops (no rejection on the way). */
    static boolean isCycle(AMQP.BasicProperties properties, String target) {
        Object deaths = properties.getHeaders() == null ? null : properties.getHeaders().get("x-death");
        if (!(deaths instanceof List<?> list)) {
            return false;
        }
        boolean seen = false;
        for (Object death : list) {
            if (death instanceof Map<?, ?> map) {
                if ("rejected".equals(String.valueOf(map.get("reason")))) {
                    return false;
                }
                seen |= target.equals(String.valueOf(map.get("queue")));
            }
        }
        return seen;
    }
}
