package org.acme.docs.delays;

public record Reminder(String id) {
}
