package org.acme.docs.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class Processor {

    public enum Answer {
        OK,
        BUSY,
        UNAVAILABLE,
        DECLINED
    }

    private final Map<String, Deque<Answer>> scripts = new ConcurrentHashMap<>();

    public Answer refund(String card) {
        Deque<Answer> script = scripts.get(card);
        if (script == null) {
            return Answer.OK;
        }
        synchronized (script) {
            return script.size() > 1 ? script.poll() : script.peek(); // the last answer sticks
        }
    }

    /** The answers for a card, one per call. */
    public void script(String card, List<Answer> answers) {
        scripts.put(card, new ArrayDeque<>(answers));
    }
}
