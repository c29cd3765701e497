#!/usr/bin/env bash
# Stream drain benchmark: N x 100 B messages read from a stream from its first offset, round after round, pinned as
# drain.sh pinned is (RabbitMQ on CPU 0, each client on CPU 1): the bare stream client counting messages (StreamTool
# drain: the protocol's ceiling here) and the extension's event-loop stream subscriber taking byte[] (the example app
# built with -Dbench.drain=stream, -Xmx64m, a consumer name of its own each run, so each reads from the first offset),
# and Spring AMQP's stream listener container taking byte[] (bench/spring-peer, -Dbench.drain.stream=true, -Xmx64m,
# a consumer name of its own each run). Prints each one's median rate, the ratios of ours to the bare client's and to
# Spring's, and our app's CPU per message and peak RSS.
#
#   integration-tests/bench/streams.sh [messages] [rounds]
#   WARMUP=2000000 integration-tests/bench/streams.sh    (steady state: each JVM reads WARMUP messages first, unmeasured)
#
# Defaults: 1,000,000 messages, 3 rounds, no warm-up (a cold drain: the JIT compiles while it is measured). Needs RabbitMQ with the stream plugin: RabbitMQ 4.0.5 from .ci/rabbitmq4
# (AMQP on 5682, streams on 5553; PORT and STREAM_PORT say otherwise), taskset, and the extension installed
# (./mvnw -DskipTests install).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
count=${1:-1000000}
rounds=${2:-3}
warmup=${WARMUP:-0}
total=$((count + warmup))
port=${PORT:-5682}
stream_port=${STREAM_PORT:-5553}
stream=bench.stream
work="$root/integration-tests/target/bench"
mkdir -p "$work"

mvn -q -B -f "$here/stream-tools-pom.xml" dependency:build-classpath -Dmdep.outputFile="$work/stream-tools.cp" >/dev/null
tools=$(cat "$work/stream-tools.cp")
uri="rabbitmq-stream://guest:guest@127.0.0.1:$stream_port/%2f"
tool() { java -Duri="$uri" -cp "$tools" "$here/StreamTool.java" "$@"; }

echo "== building the example app with the stream subscriber"
mvn -q -B -f "$root/integration-tests/pom.xml" package -DskipTests -Dbench.drain=stream -Dno-observability \
  -Dquarkus.package.output-directory=bench-app-stream >/dev/null
app="$root/integration-tests/target/bench-app-stream/quarkus-run.jar"
echo "== building the Spring AMQP peer"
mvn -q -B -f "$here/spring-peer/pom.xml" package -DskipTests >/dev/null
spring="$here/spring-peer/target/spring-drain-peer.jar"

broker_pid=$(ss -ltnp 2>/dev/null | grep "127.0.0.1:$port " | grep -o 'pid=[0-9]*' | grep -o '[0-9]*' | head -1 || true)
if [ -z "$broker_pid" ] || ! command -v taskset >/dev/null; then
  echo "streams.sh needs taskset and RabbitMQ listening on 127.0.0.1:$port" >&2
  exit 1
fi
all_cpus="0-$(( $(nproc) - 1 ))"
unpin() { taskset -apc "$all_cpus" "$broker_pid" >/dev/null; }
taskset -apc 0 "$broker_pid" >/dev/null
trap unpin EXIT
pin="taskset -c 1"

echo "== filling $stream with $total x 100 B"
tool fill "$stream" "$total"

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
bare_rates=() ours_rates=() spring_rates=()
# run_app LOG JAVA-ARGS...: starts a drain app pinned, waits for its BENCH lines, prints its rate; its peak RSS in
# MiB goes to LOG.rss (run_app runs in a subshell).
run_app() {
  local log=$1; shift
  $pin java -Xmx64m "$@" > "$log" 2>&1 &
  local app_pid=$!
  for _ in $(seq 1 1200); do
    grep -q "BENCH drained" "$log" && break
    kill -0 $app_pid 2>/dev/null || { echo "the app died:" >&2; tail -20 "$log" >&2; exit 1; }
    sleep 0.5
  done
  echo $(( $(grep VmHWM /proc/$app_pid/status | grep -o '[0-9]*') / 1024 )) > "$log.rss"
  kill $app_pid; wait $app_pid 2>/dev/null || true
  grep -o 'BENCH drained.*' "$log" | grep -o '[0-9]* msg/s' | grep -o '[0-9]*'
}
for round in $(seq 1 "$rounds"); do
  bare=$($pin java -Duri="$uri" -cp "$tools" "$here/StreamTool.java" drain "$stream" "$total" "$warmup" \
    | grep -o '[0-9]* msg/s' | grep -o '[0-9]*')
  bare_rates+=("$bare")
  log="$work/stream-app.log"
  ours=$(run_app "$log" -Dquarkus.rabbitmq-subscriber.outbox.relay.enabled=false -Dquarkus.http.port=0 \
    -Dquarkus.rabbitmq-subscriber.url="amqp://guest:guest@127.0.0.1:$port" \
    -Dquarkus.rabbitmq-subscriber.stream-port="$stream_port" \
    "-Dquarkus.rabbitmq-subscriber.streams.\"$stream\".consumer-name=bench-$$-$round" \
    -Dbench.expected="$total" -Dbench.warmup="$warmup" -jar "$app")
  ours_rates+=("$ours")
  cpu=$(grep -o 'BENCH cpu per message.*' "$log" | sed 's/BENCH //')
  ours_rss=$(cat "$log.rss")
  spring_rate=$(run_app "$work/stream-spring.log" -Dbench.drain.listener=false -Dbench.drain.stream=true \
    -Dspring.rabbitmq.port="$port" -Dspring.rabbitmq.stream.host=127.0.0.1 \
    -Dspring.rabbitmq.stream.port="$stream_port" -Dbench.stream.name="spring-$$-$round" \
    -Dbench.expected="$total" -Dbench.warmup="$warmup" -jar "$spring")
  spring_rates+=("$spring_rate")
  spring_rss=$(cat "$work/stream-spring.log.rss")
  echo "   round $round: bare client $bare msg/s, ours $ours msg/s (peak RSS $ours_rss MiB), Spring AMQP $spring_rate msg/s (peak RSS $spring_rss MiB)"
done
tool delete "$stream"
bare_median=$(median "${bare_rates[@]}")
ours_median=$(median "${ours_rates[@]}")
spring_median=$(median "${spring_rates[@]}")
echo
echo "stream drain, $count x 100 B from the first offset$([ "$warmup" = 0 ] && echo ", cold" || echo ", after $warmup unmeasured"), pinned, $rounds rounds: median msg/s (the rounds)"
printf '  %-12s %9s   (%s)\n' "bare client" "$bare_median" "${bare_rates[*]}"
printf '  %-12s %9s   (%s)\n' "ours" "$ours_median" "${ours_rates[*]}"
printf '  %-12s %9s   (%s)\n' "Spring AMQP" "$spring_median" "${spring_rates[*]}"
awk -v a="$ours_median" -v b="$bare_median" 'BEGIN { printf "ours / bare client  %.2f  (goal >= 0.80)\n", a / b }'
awk -v a="$ours_median" -v b="$spring_median" 'BEGIN { printf "ours / Spring AMQP  %.2f  (goal >= 1.20)\n", a / b }'
echo "ours, last round: $cpu; peak RSS $ours_rss MiB at -Xmx64m (Spring AMQP's: $spring_rss MiB)"
