package org.acme.soak;

import java.lang.management.ManagementFactory;
import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** The heap in use, sampled by the script beside the process's RSS. */
@Path("/soak/heap")
public class Heap {

    @GET
    public Map<String, Long> heap() {
        var memory = ManagementFactory.getMemoryMXBean();
        return Map.of("used", memory.getHeapMemoryUsage().getUsed(), "committed",
                memory.getHeapMemoryUsage().getCommitted(), "nonHeap", memory.getNonHeapMemoryUsage().getUsed());
    }
}
