#!/usr/bin/env bash
# Latency benchmark: end-to-end latency from publish to handler at a fixed rate (1,000 and 10,000 msg/s by default),
# for the extension's event-loop and worker subscribers (byte[], no decoding) in a Quarkus application that has nothing
# else (bench/quarkus-peer), Spring AMQP's @RabbitListener on its direct container in a Spring Boot application that has
# nothing else (bench/spring-peer) and PerfTest's own consumer (-x 1 -y 1, its producer in the same JVM), in the same
# run, round after round. A publisher (LatencyPublisher.java) writes its wall-clock time into each 100-byte body
# and paces per millisecond; each subscriber subtracts it from its own clock at handling (one machine, one clock). The
# publisher compiles its own publishing path before each run (a warm-up to a queue of its own): until 2026-12-06 its
# JIT did so 5 s into the run, on RabbitMQ's core, and every peer measured slow messages in its sixth second.
# The first tenth of each run is left out (the JIT's warm-up; SKIP=50 leaves out the first half). PerfTest measures the same span with its own
# timestamps, and reports p50 and p99 only (no p99.9). Each application peer's start-up garbage (not PerfTest's) is
# collected (jcmd GC.run) once it is up, before its run: the span measures the libraries, not how much each
# application's start left in the young generation (GC_FIRST=0: as measured until the night of 2026-12-05).
#
#   integration-tests/bench/latency.sh [rounds] [seconds per run]
#
# RabbitMQ runs on CPU 0 with the publisher (taskset), each consumer on CPU 1, as in drain.sh's pinned mode. Prints
# every run (with each peer's collections during it and its messages over a millisecond, second by second), then the
# median over the rounds of each percentile, our p99 against Spring's, and that ratio round by round. Needs RabbitMQ on
# 127.0.0.1:5672 (guest/guest) and the extension installed (./mvnw -DskipTests install). RATES="1000 10000" by default.
#
# To measure a change to the delivery path: WORKER_B=<quarkus-run.jar of the worker peer built before it> (copy
# bench/quarkus-peer/target/app-worker aside first, whole) adds that build as "worker-b", run beside the present one in
# every round, the two in turns (worker first in odd rounds), each with its p99 against Spring's of the same round.
# JFR=1 records each application peer with the options LatencyBursts.java reads (latency-<rate>-<round>-<peer>.jfr
# beside its log in integration-tests/target/bench); the recording costs the peers some CPU, the same for each.
# ACK=1 measures from publish to ack as well: each application peer connects through AckTap.java (a relay on CPU 0,
# 127.0.0.1:${ACK_PORT:-5699}) that reads the frames going by and times each delivery's basic.ack (a multiple ack
# settles all the earlier ones); the relay's hop is in both figures of every peer, so compare them within ACK=1 runs.
# QUICK=1 runs only the worker peers and Spring's (no event-loop peer, no PerfTest): an A/B of the worker path with
# WORKER_B in about half the time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-3}
seconds=${2:-20}
rates=${RATES:-"1000 10000"}
# The share of each run left out as warm-up, in percent (SKIP=50: the second half of a run only).
skip=${SKIP:-10}
queue=bench.latency
work="$root/integration-tests/target/bench"
mkdir -p "$work"

mvn -q -B -f "$here/perftest-pom.xml" dependency:build-classpath -Dmdep.outputFile="$work/perftest.cp" >/dev/null
amqp=$(cat "$work/perftest.cp")

broker_pid=$(ss -ltnp 2>/dev/null | grep '127.0.0.1:5672 ' | grep -o 'pid=[0-9]*' | grep -o '[0-9]*' | head -1 || true)
if [ -z "$broker_pid" ] || ! command -v taskset >/dev/null; then
  echo "Needs taskset and the broker's process (the beam.smp listening on 127.0.0.1:5672)" >&2
  exit 1
fi
gc_first=${GC_FIRST:-1}
case "$gc_first" in
  0|1) ;;
  *) echo "GC_FIRST is 1 (the default: each peer's start-up collected before its run) or 0" >&2; exit 1 ;;
esac
if [ "$gc_first" = 1 ] && ! command -v jcmd >/dev/null; then
  echo "Needs jcmd (the JDK's) to collect each peer's start-up garbage before its run; GC_FIRST=0 measures without" >&2
  exit 1
fi
worker_b=${WORKER_B:-}
if [ -n "$worker_b" ] && [ ! -f "$worker_b" ]; then
  echo "WORKER_B names no file: $worker_b (the quarkus-run.jar of an earlier build of the worker peer)" >&2
  exit 1
fi
ack=${ACK:-0}
case "$ack" in
  0|1) ;;
  *) echo "ACK is 0 (the default) or 1 (publish to ack as well, through AckTap.java)" >&2; exit 1 ;;
esac
ack_port=${ACK_PORT:-5699}
jfr=()
case "${JFR:-0}" in
  0) ;;
  # The options of LatencyBursts.java's header.
  1) jfr=("-XX:StartFlightRecording=filename=$work/latency-%RUN%.jfr,jdk.ClassLoad#enabled=true,jdk.ClassLoad#threshold=0ms,jdk.Compilation#threshold=0ms,jdk.Deoptimization#enabled=true,jdk.ThreadPark#threshold=2ms,jdk.SafepointBegin#enabled=true,jdk.SafepointBegin#threshold=1ms") ;;
  *) echo "JFR is 0 (the default) or 1 (record each application peer)" >&2; exit 1 ;;
esac
all_cpus="0-$(( $(nproc) - 1 ))"
unpin() { taskset -apc "$all_cpus" "$broker_pid" >/dev/null; }
taskset -apc 0 "$broker_pid" >/dev/null
trap unpin EXIT

publisher() {
  taskset -c 0 java -cp "$amqp" "$here/LatencyPublisher.java" "$queue" "$@"
}

echo "== building: the extension's peer once per execution model, and Spring AMQP's peer"
# Until 2026-12-05 the extension's side was the example application (REST, Hibernate ORM, PostgreSQL, an outbox relay
# and seven subscribers beside the benchmark's) against a Spring peer with Spring AMQP only: the cold p99 measured the
# applications' start-up as much as the libraries.
build_peer() {
  "$root/mvnw" -q -B -f "$here/quarkus-peer/pom.xml" package -Dbench.mode="$1" \
    -Dquarkus.package.output-directory="app-$1" >/dev/null
  echo "$here/quarkus-peer/target/app-$1/quarkus-run.jar"
}
ours_loop=$(build_peer event-loop)
ours_worker=$(build_peer worker)
mvn -q -B -f "$here/spring-peer/pom.xml" package -DskipTests >/dev/null
spring="$here/spring-peer/target/spring-drain-peer.jar"

# consume_app <started line> <java args...>: starts a consumer (CPU 1), publishes rate x seconds once it is up, and
# prints its percentiles "p50 p99 p99.9" (ACK=1: those from publish to ack in acktap-<run>.log, read by ack_of).
consume_app() {
  local started=$1 log="$work/latency-$run.log" pid tap= via=()
  shift
  publisher 1 0 >/dev/null
  if [ "$ack" = 1 ]; then
    taskset -c 0 java "$here/AckTap.java" "$ack_port" 5672 "$count" "$skip" > "$work/acktap-$run.log" 2>&1 &
    tap=$!
    trap "kill $tap 2>/dev/null || true" EXIT
    for _ in $(seq 1 60); do
      grep -q "AckTap relaying" "$work/acktap-$run.log" && break
      kill -0 $tap 2>/dev/null || { echo "AckTap died:" >&2; cat "$work/acktap-$run.log" >&2; exit 1; }
      sleep 0.5
    done
    grep -q "AckTap relaying" "$work/acktap-$run.log" \
      || { echo "AckTap did not start within 30 s: $work/acktap-$run.log" >&2; exit 1; }
    # Each peer reads its own property and ignores the other's.
    via=(-Dquarkus.rabbitmq-subscriber.url="amqp://guest:guest@127.0.0.1:$ack_port" -Dspring.rabbitmq.port="$ack_port")
  fi
  taskset -c 1 java -Xmx256m ${jfr[@]+"${jfr[@]//%RUN%/$run}"} -Dbench.expected="$count" \
    -Dbench.skip-percent="$skip" -Dquarkus.http.port=0 ${via[@]+"${via[@]}"} "$@" > "$log" 2>&1 &
  pid=$!
  # consume_app runs in a command substitution, a subshell of its own: its EXIT trap fires when it returns. So it kills
  # what it started and nothing more; the broker stays pinned until the script's own exit (until 2026-12-06 this trap
  # also unpinned it: every run after the benchmark's first had RabbitMQ on both cores).
  trap "kill $pid $tap 2>/dev/null || true" EXIT
  for _ in $(seq 1 120); do
    grep -q "$started" "$log" && break
    kill -0 $pid 2>/dev/null || { echo "the consumer died:"; tail -20 "$log"; exit 1; }
    sleep 0.5
  done
  # The start-up collection (see the header): Spring Boot's start collects before its listener starts, while the
  # extension's peer starts with so little that its first young collection (26-50 ms) came about 10 s into the run.
  # consume_app runs in a command substitution, where set -e does not hold: a failed collection ends the benchmark
  # here rather than measuring this run the other way.
  if [ "$gc_first" = 1 ] && ! jcmd "$pid" GC.run >/dev/null; then
    echo "jcmd GC.run failed on the consumer (pid $pid)" >&2
    kill $pid 2>/dev/null || true
    exit 1
  fi
  publisher "$rate" "$count" >/dev/null
  for _ in $(seq 1 120); do
    grep -q "BENCH collections" "$log" && break
    sleep 0.5
  done
  if [ -n "$tap" ]; then
    # The last acks leave up to the pacing's 5 ms after the last message.
    for _ in $(seq 1 20); do
      grep -q "BENCH ack latency" "$work/acktap-$run.log" && break
      sleep 0.5
    done
  fi
  kill $pid; wait $pid 2>/dev/null || true
  if [ -n "$tap" ]; then kill $tap; wait $tap 2>/dev/null || true; fi
  trap - EXIT
  grep -o 'BENCH latency.*' "$log" | awk '{ print $5, $7, $9 }'
}

# ack_of <run>: that run's percentiles from publish to ack, "p50 p99 p99.9" (ACK=1).
ack_of() {
  grep -o 'BENCH ack latency.*' "$work/acktap-$1.log" | awk '{ print $6, $8, $10 }' \
    || { echo "no BENCH ack latency line (fewer acks than messages?) in $work/acktap-$1.log" >&2; return 1; }
}

# perftest_latency: PerfTest's producer and consumer at the rate; prints its median and 99th percentile consumer
# latency over the run, "p50 p99 -".
perftest_latency() {
  publisher 1 0 >/dev/null
  taskset -c 1 java -cp "$amqp" com.rabbitmq.perf.PerfTest -x 1 -y 1 -u "$queue" -p -r "$rate" -C "$count" \
    -q 250 -s 100 -z $(( seconds + 30 )) > "$work/perftest-latency.log" 2>&1 || true
  grep -o 'consumer latency min/median/75th/95th/99th [0-9/]*' "$work/perftest-latency.log" | tail -1 \
    | awk '{ split($4, v, "/"); print v[2], v[5], "-" }'
}

# The middle value; of an even count, the mean of the two middle ones (until 2026-12-05 the lower of them, which
# favoured whichever ratio came out lower in runs of an even number of rounds).
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# percentile_medians <"p50 p99 p99.9;..." of the rounds>: sets med50, med99 and med999, each percentile's median over
# the rounds ("-" for a percentile the peer does not report).
percentile_medians() {
  local runs run a b c p50s=() p99s=() p999s=()
  IFS=';' read -r -a runs <<< "$1"
  for run in "${runs[@]}"; do
    read -r a b c <<< "$run"
    p50s+=("$a"); p99s+=("$b"); p999s+=("$c")
  done
  med50=$(median "${p50s[@]}")
  med99=$(median "${p99s[@]}")
  if [ "${p999s[0]}" = "-" ]; then med999=-; else med999=$(median "${p999s[@]}"); fi
}

ours=(event-loop worker)
[ -n "$worker_b" ] && ours+=(worker-b)
case "${QUICK:-0}" in
  0) names=("${ours[@]}" spring-direct perftest) ;;
  1) ours=("${ours[@]:1}"); names=("${ours[@]}" spring-direct) ;;
  *) echo "QUICK is 0 (the default: every peer) or 1 (the worker peers and Spring's only)" >&2; exit 1 ;;
esac
# in_run <peer>: whether this run measures the peer.
in_run() { [[ " ${names[*]} " == *" $1 "* ]]; }
declare -A results acks
for rate in $rates; do
  count=$(( rate * seconds ))
  for round in $(seq 1 "$rounds"); do
    echo "== $rate msg/s, round $round of $rounds ($count messages each; RabbitMQ and the publisher on CPU 0, the consumer on CPU 1)"
    if in_run event-loop; then
      run=$rate-$round-event-loop
      results[$rate,event-loop]+="$(consume_app 'Installed features' -jar "$ours_loop");"
    fi
    workers=(worker)
    if [ -n "$worker_b" ]; then
      # In turns: a build that always ran second would meet the hour (and the broker's state) the other did not.
      if [ $(( round % 2 )) = 1 ]; then workers=(worker worker-b); else workers=(worker-b worker); fi
    fi
    for name in "${workers[@]}"; do
      run=$rate-$round-$name
      jar=$ours_worker
      [ "$name" = worker-b ] && jar=$worker_b
      results[$rate,$name]+="$(consume_app 'Installed features' -jar "$jar");"
    done
    run=$rate-$round-spring-direct
    results[$rate,spring-direct]+="$(consume_app 'Started SpringDrain' -Dspring.rabbitmq.listener.type=direct \
      -Dbench.latency=true -Dbench.drain.listener=false -jar "$spring");"
    if in_run perftest; then results[$rate,perftest]+="$(perftest_latency);"; fi
    for name in "${names[@]}"; do
      printf '   %-14s p50/p99/p99.9 µs: %s\n' "$name" "${results[$rate,$name]}"
    done
    if [ "$ack" = 1 ]; then
      for name in "${ours[@]}" spring-direct; do
        acks[$rate,$name]+="$(ack_of "$rate-$round-$name");"
        printf '   %-14s to ack, p50/p99/p99.9 µs: %s\n' "$name" "${acks[$rate,$name]}"
      done
    fi
    # Each peer's own account of its run: the JVM's collections while it handled the messages (a pause in the run is
    # a tail no library choice explains), and how many messages took over a millisecond in each second.
    for name in "${ours[@]}" spring-direct; do
      printf '   %-14s collections in the run: %s; >1 ms by second:%s\n' "$name" \
        "$(grep -o 'during the run: .*' "$work/latency-$rate-$round-$name.log" | cut -d' ' -f4-)" \
        "$(grep -o 'by second:.*' "$work/latency-$rate-$round-$name.log" | cut -d: -f2)"
    done
  done
done
publisher delete >/dev/null

echo
echo "medians over $rounds rounds of each percentile (µs), publish to handler, ${seconds} s per run, first ${skip}% left out,"
if [ "$gc_first" = 1 ]; then
  echo "each application peer's start-up collected before its run (GC_FIRST=1):"
else
  echo "start-up not collected first (GC_FIRST=0):"
fi
for rate in $rates; do
  declare -A p99
  for name in "${names[@]}"; do
    percentile_medians "${results[$rate,$name]}"
    p99[$name]=$med99
    printf '  %6s msg/s  %-14s p50 %6s  p99 %6s  p99.9 %6s\n' "$rate" "$name" "$med50" "$med99" "$med999"
  done
  awk -v a="${p99[event-loop]:-}" -v w="${p99[worker]}" -v s="${p99[spring-direct]}" -v r="$rate" 'BEGIN {
    printf "  %6s msg/s  p99 ours / Spring direct: event loop %s, worker %.2f (target at 1,000 msg/s: <= 1.00)\n",
      r, a == "" ? "-" : sprintf("%.2f", a / s), w / s }'
  # Round by round (each against Spring's of the same round, minutes apart): the cold p99 moves from one round to the
  # next by more than the libraries differ, so the spread and the rounds at or under 1.00 say how far a median holds.
  for name in "${ours[@]}"; do
    IFS=';' read -r -a mine <<< "${results[$rate,$name]}"
    IFS=';' read -r -a theirs <<< "${results[$rate,spring-direct]}"
    ratios=()
    for i in "${!mine[@]}"; do
      ratios+=("$(awk -v a="${mine[$i]}" -v s="${theirs[$i]}" 'BEGIN { split(a, x, " "); split(s, y, " "); printf "%.2f", x[2] / y[2] }')")
    done
    printf '  %6s msg/s  %-10s p99 / Spring'"'"'s, round by round: %s (median %s, %d of %d at or under 1.00)\n' "$rate" \
      "$name" "${ratios[*]}" "$(median "${ratios[@]}")" \
      "$(printf '%s\n' "${ratios[@]}" | awk '$1 <= 1.00' | wc -l)" "${#ratios[@]}"
  done
  unset p99
  if [ "$ack" = 1 ]; then
    # From publish to the ack's frame passing the relay: the handler's latency, then the time the library holds the
    # ack (the extension's pacing gathers acks for up to 5 ms while they flow; Spring's direct container acks each).
    declare -A ack99
    for name in "${ours[@]}" spring-direct; do
      percentile_medians "${acks[$rate,$name]}"
      ack99[$name]=$med99
      printf '  %6s msg/s  %-14s to ack: p50 %6s  p99 %6s  p99.9 %6s\n' "$rate" "$name" "$med50" "$med99" "$med999"
    done
    awk -v a="${ack99[event-loop]:-0}" -v w="${ack99[worker]}" -v s="${ack99[spring-direct]}" -v r="$rate" 'BEGIN {
      printf "  %6s msg/s  to ack, p99 ours / Spring direct: event loop %.2f, worker %.2f\n", r, a / s, w / s }'
    unset ack99
  fi
done
