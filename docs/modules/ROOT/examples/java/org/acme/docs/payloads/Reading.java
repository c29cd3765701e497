package org.acme.docs.payloads;

public record Reading(String sensor, double value) {
}
