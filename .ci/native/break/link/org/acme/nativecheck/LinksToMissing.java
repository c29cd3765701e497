package org.acme.nativecheck;

/**
 * The deliberate break of .ci/native-check --break=link: a library method, registered for reflective invocation by its
 * jar (reflect-config.json), that uses a class the jar does not ship (Missing is compiled beside it, then left out). A
 * real native build of a Quarkus application fails on it: Quarkus passes --link-at-build-time, so every type must
 * resolve when the builder parses the code.
 */
public final class LinksToMissing {

    private LinksToMissing() {
    }

    public static Object use() {
        return new Missing();
    }
}

/** Compiled for LinksToMissing to compile, and left out of the jar. */
final class Missing {
}
