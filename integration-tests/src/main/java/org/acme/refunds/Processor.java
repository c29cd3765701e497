package org.acme.refunds;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The card processor the refunds service calls. It is a stand-in: by default it accepts every refund, and a card can
 * be scripted with the answers it gives, one per call ({@code PUT /processor/{card}}), to show each outcome.
 */
@ApplicationScoped
public class Processor {

    public enum Answer {
        /** The refund went through. */
        OK,
        /** Past its rate limit: a call right now would be refused again. */
        BUSY,
        /** It did not answer: worth trying again at once. */
        UNAVAILABLE,
        /** The card account is closed: another try gets the same answer. */
        DECLINED
    }

    private final Map<String, Deque<Answer>> scripts = new ConcurrentHashMap<>();

    public Answer refund(String card) {
        Deque<Answer> script = scripts.get(card);
        if (script == null) {
            return Answer.OK;
        }
        synchronized (script) {
            // The last scripted answer sticks.
            return script.size() > 1 ? script.poll() : script.peek();
        }
    }

    public void script(String card, List<Answer> answers) {
        scripts.put(card, new ArrayDeque<>(answers));
    }
}
