#!/usr/bin/env bash
# Drain benchmark: 100,000 small JSON messages drained by a no-op @Subscriber (heap capped at -Xmx64m), then the same
# number drained by RabbitMQ PerfTest twice, in the same run: single acks (-x 0 -y 1 -q 250) and multiple acks
# (-q 1000 -A 100: about what this broker can deliver). Prints the rates, the ratio against the peer the target names
# (event loop: the multiple-ack drain; worker: the single-ack one) and the app's peak RSS. A benchmark, not a test:
# run it by hand on a quiet machine.
#
#   integration-tests/bench/drain.sh [worker|event-loop] [messages]
#
# Needs RabbitMQ on 127.0.0.1:5672 (guest/guest) and the extension installed (mvn -DskipTests install).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-worker}
count=${2:-100000}
queue=bench.drain
work="$root/integration-tests/target/bench"
mkdir -p "$work"

echo "== resolving PerfTest 2.22.1 and building the app with the $mode no-op subscriber"
mvn -q -B -f "$here/perftest-pom.xml" dependency:build-classpath -Dmdep.outputFile="$work/perftest.cp" >/dev/null
amqp=$(cat "$work/perftest.cp")
mvn -q -B -f "$root/integration-tests/pom.xml" package -DskipTests -Dbench.drain="$mode" \
  -Dquarkus.package.output-directory=bench-app >/dev/null
app="$root/integration-tests/target/bench-app/quarkus-run.jar"

echo "== filling $queue with $count messages"
java -cp "$amqp" "$here/Fill.java" "$queue" "$count"

echo "== draining with the @Subscriber app (-Xmx64m)"
log="$work/app.log"
java -Xmx64m ${APP_OPTS:-} -Dbench.expected="$count" -Dquarkus.http.port=0 -jar "$app" > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  grep -q "BENCH drained" "$log" && break
  kill -0 $pid 2>/dev/null || { echo "the app died:"; tail -20 "$log"; exit 1; }
  sleep 0.5
done
ours=$(grep -o 'BENCH drained.*' "$log" | grep -o '[0-9]* msg/s' | grep -o '[0-9]*')
cpu=$(grep -o 'BENCH cpu per message.*' "$log" | sed 's/BENCH //')
rss_kb=$(grep VmHWM /proc/$pid/status | grep -o '[0-9]*')
kill $pid; wait $pid 2>/dev/null || true
trap - EXIT

echo "== filling $queue with $count messages again"
java -cp "$amqp" "$here/Fill.java" "$queue" "$count"

echo "== draining with PerfTest -x 0 -y 1 -q 250"
java -cp "$(cat "$work/perftest.cp")" com.rabbitmq.perf.PerfTest -x 0 -y 1 -q 250 -u "$queue" -p \
  -D "$count" -z 300 > "$work/perftest.log" 2>&1 || true
theirs=$(grep -o 'receiving rate avg: [0-9]*' "$work/perftest.log" | grep -o '[0-9]*$' | tail -1)

echo "== filling $queue with $count messages a third time"
java -cp "$amqp" "$here/Fill.java" "$queue" "$count"

echo "== draining with PerfTest -x 0 -y 1 -q 1000 -A 100 (one multiple ack per 100 messages)"
java -cp "$(cat "$work/perftest.cp")" com.rabbitmq.perf.PerfTest -x 0 -y 1 -q 1000 -A 100 -u "$queue" -p \
  -D "$count" -z 300 > "$work/perftest-multi.log" 2>&1 || true
multi=$(grep -o 'receiving rate avg: [0-9]*' "$work/perftest-multi.log" | grep -o '[0-9]*$' | tail -1)
java -cp "$amqp" "$here/Fill.java" "$queue" delete

echo
echo "subscriber ($mode, -Xmx64m): ${ours} msg/s, peak RSS $((rss_kb / 1024)) MiB"
echo "  app $cpu"
echo "PerfTest -x 0 -y 1 -q 250:   ${theirs} msg/s (single acks)"
echo "PerfTest -q 1000 -A 100:     ${multi} msg/s (multiple acks)"
if [ "$mode" = "worker" ]; then
  awk -v a="$ours" -v b="$theirs" 'BEGIN { if (b > 0) printf "ratio subscriber/PerfTest single-ack: %.2f (target >= 1.10)\n", a / b }'
else
  awk -v a="$ours" -v b="$multi" 'BEGIN { if (b > 0) printf "ratio subscriber/PerfTest multiple-ack: %.2f (target >= 0.90)\n", a / b }'
fi
