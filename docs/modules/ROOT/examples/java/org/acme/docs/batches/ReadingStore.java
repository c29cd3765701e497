package org.acme.docs.batches;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** A stand-in for a repository that writes many rows in one statement. */
@ApplicationScoped
public class ReadingStore {

    private final List<List<Reading>> inserts = new CopyOnWriteArrayList<>();

    public void insert(List<Reading> readings) {
        inserts.add(List.copyOf(readings)); // one INSERT of many rows here
    }

    List<List<Reading>> inserts() {
        return List.copyOf(inserts);
    }
}
