package org.acme.docs.batches;

public record Reading(String sensor, double value) {
}
