#!/usr/bin/env bash
# Fault benchmark: the load-and-fault run (deployment's LoadAndFaultTest) against the local RabbitMQ, printing its
# figures: messages, faults, time until every subscriber consumes again after each fault, lost (must be 0),
# duplicates. The test itself asserts only correctness; this prints the numbers.
#
#   integration-tests/bench/faults.sh [messages]     (default 50000)
#
# Then the cluster run (deployment's ClusterFailoverTest: 20,000 messages in a quorum queue, the application's node
# stopped, then the queue's leader) when a three-node cluster answers on 5701-5703 (.ci/cluster start first).
#
# Needs RabbitMQ on 127.0.0.1:5672 (guest/guest), rabbitmqctl, and the extension installed (./mvnw -DskipTests install).
# -DargLine= : the test JVMs with the JVM's defaults (the build's own argLine trades peak speed for less compiling).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
messages=${1:-50000}
"$root/mvnw" -q -B -o -f "$root/deployment/pom.xml" test -Dtest=LoadAndFaultTest -Dsurefire.failIfNoSpecifiedTests=false -DargLine= \
  -Dfaults.messages="$messages" >/dev/null 2>&1 || echo "(the run failed: see deployment/target/surefire-reports)"
grep -ho 'FAULTS .*' "$root/deployment/target/surefire-reports/TEST-org.acme.subscriber.test.faults.LoadAndFaultTest.xml" \
  | sed 's/^FAULTS //'
"$root/mvnw" -q -B -o -f "$root/deployment/pom.xml" test -Dtest=ClusterFailoverTest -Dsurefire.failIfNoSpecifiedTests=false -DargLine= \
  -Dcluster.tests=true \
  >/dev/null 2>&1 || echo "(the cluster run failed: see deployment/target/surefire-reports)"
report="$root/deployment/target/surefire-reports/TEST-org.acme.subscriber.test.faults.ClusterFailoverTest.xml"
if grep -q 'CLUSTER ' "$report" 2>/dev/null; then
  grep -ho 'CLUSTER .*' "$report" | sed 's/^CLUSTER /cluster: /'
else
  echo "cluster: skipped (no three-node cluster on 127.0.0.1:5701-5703; start one with .ci/cluster start)"
fi
