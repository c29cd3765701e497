package org.acme.peer;

import org.jboss.logging.Logger;

/** Both handlers' record of the latency benchmark ({@link LatencyRecord}, shared with Spring's peer), logged once done. */
public final class LatencyRecorder {

    private static final Logger LOG = Logger.getLogger(LatencyRecorder.class);

    private final LatencyRecord record = new LatencyRecord();

    public void handled(byte[] body) {
        record.handled(body).forEach(LOG::info);
    }
}
