#!/usr/bin/env bash
# Drain benchmark: 100,000 small JSON messages drained by a no-op @Subscriber (heap capped at -Xmx64m), then the same
# number drained by RabbitMQ PerfTest, in the same run: single acks (-x 0 -y 1 -q 250) and multiple acks
# (-q 1000 -A 100: about what this broker can deliver). Prints the rates, the ratio against the peer the target names
# (event loop: the multiple-ack drain; worker: the single-ack one), the app's CPU per message and its peak RSS.
#
#   integration-tests/bench/drain.sh [worker|worker-bytes|event-loop] [messages]
#
# worker-bytes is the worker subscriber taking the body as byte[] (no JSON decoding, like PerfTest).
#   integration-tests/bench/drain.sh observability [messages]
#
# The observability mode drains with the worker subscriber five times, each beside its own PerfTest single-ack drain:
# Micrometer and OpenTelemetry absent from the app (-Dno-observability), present but switched off
# (quarkus.rabbitmq-subscriber.metrics|tracing.enabled=false), metrics only, tracing only, and both on; it prints each
# ratio and what each costs against the absent run. A benchmark, not a test: run it by hand on a quiet machine.
#
# Needs RabbitMQ on 127.0.0.1:5672 (guest/guest) and the extension installed (./mvnw -DskipTests install).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-worker}
count=${2:-100000}
queue=bench.drain
work="$root/integration-tests/target/bench"
mkdir -p "$work"

mvn -q -B -f "$here/perftest-pom.xml" dependency:build-classpath -Dmdep.outputFile="$work/perftest.cp" >/dev/null
amqp=$(cat "$work/perftest.cp")

# build_app <name> <subscriber mode> [maven args...]: packages the example app with that subscriber; prints its jar.
build_app() {
  local name=$1 subscriber=$2
  shift 2
  mvn -q -B -f "$root/integration-tests/pom.xml" package -DskipTests -Dbench.drain="$subscriber" \
    -Dquarkus.package.output-directory="bench-app-$name" "$@" >/dev/null
  echo "$root/integration-tests/target/bench-app-$name/quarkus-run.jar"
}

fill() {
  java -cp "$amqp" "$here/Fill.java" "$queue" "$count" >/dev/null
}

# drain_app <jar>: fills the queue, drains it with the app; sets rate, cpu and rss_mib.
drain_app() {
  fill
  local log="$work/app.log" pid
  java -Xmx64m ${APP_OPTS:-} -Dbench.expected="$count" -Dquarkus.http.port=0 -jar "$1" > "$log" 2>&1 &
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  for _ in $(seq 1 600); do
    grep -q "BENCH drained" "$log" && break
    kill -0 $pid 2>/dev/null || { echo "the app died:"; tail -20 "$log"; exit 1; }
    sleep 0.5
  done
  rate=$(grep -o 'BENCH drained.*' "$log" | grep -o '[0-9]* msg/s' | grep -o '[0-9]*')
  cpu=$(grep -o 'BENCH cpu per message.*' "$log" | sed 's/BENCH //')
  rss_mib=$(( $(grep VmHWM /proc/$pid/status | grep -o '[0-9]*') / 1024 ))
  kill $pid; wait $pid 2>/dev/null || true
  trap - EXIT
}

# perftest <args...>: fills the queue, drains it with PerfTest; prints its receiving rate.
perftest() {
  fill
  java -cp "$amqp" com.rabbitmq.perf.PerfTest -x 0 -y 1 -u "$queue" -p -D "$count" -z 300 "$@" > "$work/perftest.log" 2>&1 \
    || true
  grep -o 'receiving rate avg: [0-9]*' "$work/perftest.log" | grep -o '[0-9]*$' | tail -1
}

if [ "$mode" = "observability" ]; then
  echo "== building the app five times: without Micrometer and OpenTelemetry, with both switched off, metrics only,"
  echo "   tracing only, both on"
  absent=$(build_app absent worker -Dno-observability)
  off=$(build_app off worker -Dquarkus.rabbitmq-subscriber.metrics.enabled=false \
    -Dquarkus.rabbitmq-subscriber.tracing.enabled=false)
  metrics=$(build_app metrics worker -Dquarkus.rabbitmq-subscriber.tracing.enabled=false)
  tracing=$(build_app tracing worker -Dquarkus.rabbitmq-subscriber.metrics.enabled=false)
  on=$(build_app on worker)
  declare -A ratio cpu_total
  for variant in absent off metrics tracing on; do
    echo "== $variant: draining $count messages with the app, then with PerfTest -q 250 (single acks)"
    drain_app "${!variant}"
    peer=$(perftest -q 250)
    ratio[$variant]=$(awk -v a="$rate" -v b="$peer" 'BEGIN { printf "%.3f", a / b }')
    cpu_total[$variant]=$(echo "$cpu" | grep -o 'total [0-9.]*' | grep -o '[0-9.]*')
    printf '%-7s subscriber %6s msg/s  PerfTest %6s msg/s  ratio %s  (%s)\n' "$variant" "$rate" "$peer" \
      "${ratio[$variant]}" "$cpu" | tee -a "$work/observability.txt"
  done
  java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null
  echo
  for variant in off metrics tracing on; do
    awk -v a="${ratio[absent]}" -v v="${ratio[$variant]}" -v ca="${cpu_total[absent]}" -v cv="${cpu_total[$variant]}" \
      -v name="$variant" 'BEGIN { printf "%-8s vs absent: %+.1f%% throughput (ratio to PerfTest), %+.1f%% app CPU per message\n",
        name, (v / a - 1) * 100, (cv / ca - 1) * 100 }'
  done
  echo "(targets: metrics on costs under 10%, tracing on under 25%; the throughput ratio moves by 20% from run to run"
  echo " here, the CPU per message much less)"
  exit 0
fi

echo "== building the app with the $mode no-op subscriber (without Micrometer and OpenTelemetry: see the observability mode)"
app=$(build_app "$mode" "$mode" -Dno-observability)
echo "== draining $count messages with the @Subscriber app (-Xmx64m)"
drain_app "$app"
echo "== draining with PerfTest -x 0 -y 1 -q 250"
theirs=$(perftest -q 250)
echo "== draining with PerfTest -x 0 -y 1 -q 1000 -A 100 (one multiple ack per 100 messages)"
multi=$(perftest -q 1000 -A 100)
java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null

echo
echo "subscriber ($mode, -Xmx64m): ${rate} msg/s, peak RSS ${rss_mib} MiB"
echo "  app $cpu"
echo "PerfTest -x 0 -y 1 -q 250:   ${theirs} msg/s (single acks)"
echo "PerfTest -q 1000 -A 100:     ${multi} msg/s (multiple acks)"
if [ "$mode" != "event-loop" ]; then
  awk -v a="$rate" -v b="$theirs" 'BEGIN { if (b > 0) printf "ratio subscriber/PerfTest single-ack: %.2f (target >= 1.10)\n", a / b }'
else
  awk -v a="$rate" -v b="$multi" 'BEGIN { if (b > 0) printf "ratio subscriber/PerfTest multiple-ack: %.2f (target >= 0.90)\n", a / b }'
fi
