#!/usr/bin/env bash
# Retry benchmark: every message is retried until its cap of 5 and dead-lettered, so each gives 5 deliveries. Runs,
# in one go and on one build of the app (event-loop subscribers, heap capped at -Xmx64m; built without Micrometer and
# OpenTelemetry, as the drain benchmark is: tracing adds a publish span and a header change to every copy, which took
# the DEFAULT retry from 1.96x to 2.83x a plain ack here; `drain.sh observability` measures what they cost):
#   plain      a plain ack, the baseline of this run
#   classic    a classic queue, DEFAULT copies, on their own channel of the publishing connection (the default
#              copy-channel): confirmed before the original's ack, since no channel orders them
#   classic-dc the same with copy-channel=delivery-channel: published on the delivery's channel, then acked, no
#              confirm (faster, but one retry during a memory alarm stalls every subscriber's acks)
#   confirmed  a classic queue, CONFIRMED copies (ack once the broker confirmed the copy)
#   quorum     a quorum queue: basic.reject requeue, the server counts and dead-letters (its baseline: a plain ack
#              on a quorum queue, quorum-plain)
#   delayed    retryAfter(1 ms) until the cap of 5, per delay strategy: IN_SERVICE (held in the service), DLX_TTL (one
#              waiting queue), DLX_TTL_PER_DELAY (the 1ms waiting queue). PLUGIN needs the delayed-message plugin,
#              which this broker does not have.
# and prints deliveries/s for each, and the cost of a retried delivery relative to a plain ack of the same run
# (plain rate / retry rate), beside its target. A benchmark, not a test: run it by hand on a quiet machine.
#
#   integration-tests/bench/retry.sh [messages]
#
# ROUNDS=3 runs each phase three times and prints the medians (absolute rates here drift by half from one hour to the
# next); ONLY=copies runs just the plain baseline and the three classic phases; ONLY=outputs the plain baseline and a
# plain ack with one output (Outputs: published and confirmed before the ack), target <= 2.0x, persistent (the default)
# and transient (as the filled inputs are).
#
# PINNED=1 puts RabbitMQ on CPU 0 (taskset -apc 0 on the broker's process, undone on exit) and the app, the fills and
# PerfTest on CPU 1, as drain.sh's pinned mode does: no client's cost takes the broker's CPU.
#
# APP_OPTS passes JVM options to the app, e.g. APP_OPTS=-Dquarkus.rabbitmq-subscriber.nio=true for NIO on the
# subscribers' connection too (by default it reads in the blocking I/O mode, where a quorum retry cost 2.28x a plain
# ack against NIO's 1.27x: every basic.reject is one socket write there).
#
# Needs RabbitMQ on 127.0.0.1:5672 (guest/guest) and the extension installed (./mvnw -DskipTests install).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mvn="$root/mvnw"
count=${1:-20000}
work="$root/integration-tests/target/bench"
mkdir -p "$work"

echo "== resolving amqp-client and building the app with the retry subscribers"
"$mvn" -q -B -f "$here/perftest-pom.xml" dependency:build-classpath -Dmdep.outputFile="$work/perftest.cp" >/dev/null
amqp=$(cat "$work/perftest.cp")
"$mvn" -q -B -f "$root/integration-tests/pom.xml" package -DskipTests -Dbench.retry=true -Dno-observability \
  -Dquarkus.package.output-directory=bench-retry-app >/dev/null
app="$root/integration-tests/target/bench-retry-app/quarkus-run.jar"

# run PHASE QUEUE MESSAGES EXPECTED [Fill arguments...]: fills the queue, drains it with the app, prints the rate.
run() {
  local phase=$1 queue=$2 messages=$3 expected=$4
  shift 4
  if ! java -cp "$amqp" "$here/Fill.java" "$queue" "$messages" "$@" > "$work/fill.log" 2>&1; then
    # Without its messages the app would wait for them until the deadline: say why instead.
    echo "filling $queue failed:" >&2
    tail -5 "$work/fill.log" >&2
    exit 1
  fi
  local log="$work/retry-$phase.log"
  java -Xmx64m ${APP_OPTS:-} ${PHASE_OPTS:-} -Dbench.expected="$expected" -Dquarkus.http.port=0 -jar "$app" > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 1200); do
    grep -q "BENCH drained" "$log" && break
    kill -0 $pid 2>/dev/null || { echo "the app died:"; tail -20 "$log"; exit 1; }
    sleep 0.5
  done
  kill $pid; wait $pid 2>/dev/null || true
  grep -o 'BENCH drained.*' "$log" | grep -o '[0-9]* msg/s' | grep -o '[0-9]*'
}

# median PHASE QUEUE MESSAGES EXPECTED [Fill arguments...]: run, ROUNDS times, and the median rate.
median() {
  local rates=()
  for _ in $(seq 1 "${ROUNDS:-1}"); do
    rates+=("$(run "$@")")
  done
  printf "%s\n" "${rates[@]}" | sort -n | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }'
}

cleanup() {
  for queue in bench.retry.plain bench.retry.quorum-plain bench.retry.classic bench.retry.classic.dead bench.retry.confirmed \
    bench.retry.confirmed.dead bench.retry.quorum bench.retry.quorum.dead \
    bench.retry.delay-inservice bench.retry.delay-inservice.dead bench.retry.delay-ttl bench.retry.delay-ttl.dead \
    bench.retry.delay-ttl.retry bench.retry.delay-perdelay bench.retry.delay-perdelay.dead \
    bench.retry.delay-perdelay.retry.1ms bench.retry.output bench.retry.output-transient bench.retry.output.sink bench.retry.peer; do
    java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null 2>&1
  done
}
trap cleanup EXIT
if [ "${PINNED:-}" = 1 ]; then
  broker_pid=$(ss -ltnp 2>/dev/null | grep '127.0.0.1:5672 ' | grep -o 'pid=[0-9]*' | grep -o '[0-9]*' | head -1 || true)
  [ -n "$broker_pid" ] && command -v taskset >/dev/null || {
    echo "PINNED=1 needs taskset and the broker's process (the beam.smp listening on 127.0.0.1:5672)" >&2
    exit 1
  }
  # Before this shell is pinned: nproc counts only the CPUs a process may use.
  all_cpus="0-$(( $(nproc) - 1 ))"
  taskset -apc 0 "$broker_pid" >/dev/null
  trap 'cleanup; taskset -apc "$all_cpus" "$broker_pid" >/dev/null' EXIT
  # This shell and all it starts from here on run on CPU 1.
  taskset -pc 1 $$ >/dev/null
  echo "== pinned: RabbitMQ ($broker_pid) on CPU 0, the app and PerfTest on CPU 1"
fi
cleanup

deliveries=$((count * 5))
# The plain baselines ack as many deliveries as the retry phases make, so each phase runs as long.
echo "== plain ack: $deliveries messages"
plain=$(median plain bench.retry.plain "$deliveries" "$deliveries")
if [ "${ONLY:-}" = outputs ]; then
  java -cp "$amqp" "$here/Fill.java" bench.retry.output.sink 0 >/dev/null
  echo "== a plain ack with one output: $deliveries messages"
  output=$(median output bench.retry.output "$deliveries" "$deliveries")
  echo "== a plain ack with one transient output: $deliveries messages"
  output_transient=$(median output-transient bench.retry.output-transient "$deliveries" "$deliveries")
  # The peer: what the broker confirms when nothing but confirmed publishes run (PerfTest, 250 in flight, 100 B), for
  # persistent and transient messages: an output is such a publish on top of the input's delivery and ack.
  peer() {
    java -cp "$amqp" com.rabbitmq.perf.PerfTest -x 1 -y 0 -u bench.retry.peer -c 250 -C "$deliveries" -s 100 -z 120 \
      -ad false "$@" 2>&1 | grep -o 'sending rate avg: [0-9]*' | grep -o '[0-9]*$'
    java -cp "$amqp" "$here/Fill.java" bench.retry.peer delete >/dev/null 2>&1
  }
  peer_persistent=$(peer -f persistent)
  peer_transient=$(peer)
  echo
  printf "%-28s %12s %28s\n" "subscriber (event loop)" "deliveries/s" "cost per delivery vs plain"
  printf "%-28s %12s\n" "plain ack" "$plain"
  awk -v p="$plain" -v r="$output" 'BEGIN { printf "%-28s %12d %20.2fx (target <= 2.0)\n", "ack with one output", r, p / r }'
  awk -v p="$plain" -v r="$output_transient" 'BEGIN { printf "%-28s %12d %20.2fx\n", "  ... a transient output", r, p / r }'
  awk -v o="$output" -v q="$peer_persistent" 'BEGIN { printf "%-28s %12d %20.2fx of it\n", "PerfTest confirmed, persistent", q, o / q }'
  awk -v o="$output_transient" -v q="$peer_transient" 'BEGIN { printf "%-28s %12d %20.2fx of it\n", "PerfTest confirmed, transient", q, o / q }'
  exit 0
fi
echo "== classic, DEFAULT copies: $count messages, $deliveries deliveries"
classic=$(median classic bench.retry.classic "$count" "$deliveries")
echo "== classic, DEFAULT copies on the delivery's channel: $count messages, $deliveries deliveries"
classic_dc=$(PHASE_OPTS=-Dquarkus.rabbitmq-subscriber.copy-channel=delivery-channel \
  median classic-dc bench.retry.classic "$count" "$deliveries")
echo "== classic, CONFIRMED copies: $count messages, $deliveries deliveries"
confirmed=$(median confirmed bench.retry.confirmed "$count" "$deliveries")
if [ "${ONLY:-}" = copies ]; then
  echo
  printf "%-28s %12s %28s\n" "subscriber (event loop)" "deliveries/s" "cost per delivery vs plain"
  printf "%-28s %12s\n" "plain ack" "$plain"
  for row in "classic retry, DEFAULT:$classic" "  ... on the delivery channel:$classic_dc" "classic retry, CONFIRMED:$confirmed"; do
    awk -v p="$plain" -v r="${row##*:}" -v n="${row%:*}" 'BEGIN { printf "%-28s %12d %20.2fx\n", n, r, p / r }'
  done
  exit 0
fi
echo "== plain ack on a quorum queue: $deliveries messages"
quorum_plain=$(median quorum-plain bench.retry.quorum-plain "$deliveries" "$deliveries" quorum-plain)
echo "== quorum, server-counted: $count messages, $deliveries deliveries"
quorum=$(median quorum bench.retry.quorum "$count" "$deliveries" quorum-cap5 bench.retry.quorum.dead)
echo "== retryAfter(1 ms), IN_SERVICE: $count messages, $deliveries deliveries"
in_service=$(median delay-inservice bench.retry.delay-inservice "$count" "$deliveries")
echo "== retryAfter(1 ms), DLX_TTL: $count messages, $deliveries deliveries"
ttl=$(median delay-ttl bench.retry.delay-ttl "$count" "$deliveries")
echo "== retryAfter(1 ms), DLX_TTL_PER_DELAY: $count messages, $deliveries deliveries"
per_delay=$(median delay-perdelay bench.retry.delay-perdelay "$count" "$deliveries")

echo
printf "%-28s %12s %28s\n" "subscriber (event loop)" "deliveries/s" "cost per delivery vs plain"
printf "%-28s %12s\n" "plain ack" "$plain"
awk -v p="$plain" -v r="$classic" 'BEGIN { printf "%-28s %12d %20.2fx (target <= 2.0)\n", "classic retry, DEFAULT", r, p / r }'
awk -v p="$plain" -v r="$classic_dc" 'BEGIN { printf "%-28s %12d %20.2fx\n", "  ... on the delivery channel", r, p / r }'
awk -v p="$plain" -v r="$confirmed" 'BEGIN { printf "%-28s %12d %20.2fx (target <= 3.0)\n", "classic retry, CONFIRMED", r, p / r }'
printf "%-28s %12s\n" "plain ack, quorum queue" "$quorum_plain"
awk -v p="$quorum_plain" -v r="$quorum" 'BEGIN { printf "%-28s %12d %20.2fx (target <= 1.2, vs the quorum ack)\n", "quorum retry", r, p / r }'
awk -v p="$plain" -v r="$in_service" 'BEGIN { printf "%-28s %12d %20.2fx\n", "retryAfter(1ms), IN_SERVICE", r, p / r }'
awk -v p="$plain" -v r="$ttl" 'BEGIN { printf "%-28s %12d %20.2fx\n", "retryAfter(1ms), DLX_TTL", r, p / r }'
awk -v p="$plain" -v r="$per_delay" 'BEGIN { printf "%-28s %12d %20.2fx\n", "retryAfter(1ms), PER_DELAY", r, p / r }'
