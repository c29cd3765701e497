import com.rabbitmq.client.*;
import java.util.*;

/**
 * Removes what the proof declares (PROOF_QUEUES and PROOF_EXCHANGES name another proof's); without "delete", then
 * declares its results queue (quorum).
 */
public class Setup {
    public static void main(String[] a) throws Exception {
        ConnectionFactory f = new ConnectionFactory();
        f.setUri(a[0]);
        try (Connection c = f.newConnection(java.util.Arrays.stream(System.getenv().getOrDefault("PROOF_PORTS", "5711,5712,5713").split(","))
                .map(port -> new Address("127.0.0.1", Integer.parseInt(port))).toList()); Channel ch = c.createChannel()) {
            // What an earlier run left goes first: a fresh start, as after the run.
            for (String queue : queues()) {
                ch.queueDelete(queue);
            }
            for (String exchange : System.getenv().getOrDefault("PROOF_EXCHANGES", "proof.ledger,proof.ledger.members")
                    .split(",")) {
                ch.exchangeDelete(exchange);
            }
            if (a.length < 2 || !a[1].equals("delete")) {
                ch.queueDeclare("proof.results", true, false, false, Map.of("x-queue-type", "quorum"));
            }
        }
    }

    /** The proof's queues: PROOF_QUEUES (names, comma-separated), else the ordered-partitions proof's. */
    static List<String> queues() {
        if (System.getenv("PROOF_QUEUES") != null) {
            return List.of(System.getenv("PROOF_QUEUES").split(","));
        }
        List<String> queues = new ArrayList<>(List.of("proof.results", "proof.ledger.dead"));
        for (int i = 0; i < 16; i++) {
            queues.add("proof.ledger." + i);
        }
        return queues;
    }
}
