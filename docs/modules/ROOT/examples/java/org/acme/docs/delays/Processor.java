package org.acme.docs.delays;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** A stand-in for the service the handlers call, which a test scripts: the answers for an id, one per call. */
@ApplicationScoped
public class Processor {

    public enum Answer {
        OK,
        BUSY,
        UNAVAILABLE,
        DECLINED
    }

    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final Map<String, Deque<Answer>> scripts = new ConcurrentHashMap<>();

    public Answer call(String id) {
        calls.add(id);
        Deque<Answer> script = scripts.get(id);
        if (script == null) {
            return Answer.OK;
        }
        synchronized (script) {
            return script.size() > 1 ? script.poll() : script.peek(); // the last answer sticks
        }
    }

    void script(String id, Answer... answers) {
        scripts.put(id, new ArrayDeque<>(List.of(answers)));
    }

    long calls(String id) {
        return calls.stream().filter(id::equals).count();
    }
}
