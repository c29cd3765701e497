package org.acme.subscriber.test.faults;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/** The three local nodes {@code .ci/cluster start} brings up (c1, c2, c3 on 5701-5703), and what the cluster tests share. */
final class ClusterNodes {

    private ClusterNodes() {
    }

    /**
     * Whether the cluster is there (the cluster tests are skipped otherwise): {@code .ci/cluster start} made its folder,
     * or all three nodes answer. Not the ports alone: the other cluster run, in the other JVM, stops every node for a
     * while, and this is asked before a class waits for its turn ({@code ExclusiveResource}).
     */
    static boolean running() {
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of(
                System.getenv().getOrDefault("CLUSTER_DIR", "/tmp/rabbitmq-cluster"), "c1"))) {
            return true;
        }
        for (int port = 5701; port <= 5703; port++) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                // answers
            } catch (Exception e) {
                return false;
            }
        }
        return true;
    }

    /** rabbitmqctl against one node, as its operator runs it; returns what it printed. */
    static String ctl(String node, String... arguments) {
        return run(List.of("su", "rabbitmq", "-s", "/bin/sh", "-c",
                "HOME=/var/lib/rabbitmq rabbitmqctl -q -n " + node + "@localhost " + String.join(" ", arguments)));
    }

    /** rabbitmqctl against one of the RabbitMQ 4.3 cluster's nodes (k1, k2, k3), through {@code .ci/cluster43 ctl}. */
    static String ctl43(String node, String... arguments) {
        List<String> command = new java.util.ArrayList<>(List.of("../.ci/cluster43", "ctl", node));
        command.addAll(List.of(arguments));
        return run(command);
    }

    /** Runs a command to its end; returns what it printed, errors included. */
    static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return output;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A connection of the test's own to the node on this port. */
    static Connection connect(int port) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(port);
        return factory.newConnection("cluster-test-admin");
    }
}
