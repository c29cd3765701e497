#!/usr/bin/env bash
# Drain benchmark: 100,000 small JSON messages drained by a no-op @Subscriber (heap capped at -Xmx64m), then the same
# number drained by RabbitMQ PerfTest, in the same run: single acks (-x 0 -y 1 -q 250) and multiple acks
# (-q 1000 -A 100: about what this broker can deliver). Prints the rates, the ratio against the peer the target names
# (event loop: the multiple-ack drain; worker: the single-ack one), the app's CPU per message and its peak RSS.
#
#   integration-tests/bench/drain.sh [worker|worker-bytes|event-loop] [messages] [rounds]
#
# worker-bytes is the worker subscriber taking the body as byte[] (no JSON decoding, like PerfTest). Each round drains
# with the app, PerfTest single-ack and PerfTest multiple-ack in turn (default 5 rounds): this machine's rates move by
# 20-50% from one drain to the next, so the figure to quote is the median of the rounds' ratios. The app's CPU line
# counts the JVM's own threads apart ("JIT+GC"): on 2 cores, the JIT's compilers take about as much CPU as the drain's
# own threads during a cold 100,000-message drain, and they share the cores with the broker. A last, "warm" drain
# fills 500,000 and measures from the 200,000th message to the 400,000th (the JIT done), for the app and for PerfTest:
# what each costs once warmed up.
#   integration-tests/bench/drain.sh observability [messages]
#
# The observability mode drains with the worker subscriber five times, each beside its own PerfTest single-ack drain:
# Micrometer and OpenTelemetry absent from the app (-Dno-observability), present but switched off
# (quarkus.rabbitmq-subscriber.metrics|tracing.enabled=false), metrics only, tracing only, and both on; it prints each
# ratio and what each costs against the absent run. A benchmark, not a test: run it by hand on a quiet machine.
#   integration-tests/bench/drain.sh pinned [messages] [rounds]
#   integration-tests/bench/drain.sh batch [messages] [rounds]
#   integration-tests/bench/drain.sh cpu [rounds]
#
# The batch mode, pinned as the pinned mode is: the extension's event-loop byte[] subscriber one message per call,
# the same with @Batch(size = 100, maxWait = "100ms"), and Spring AMQP's batch listener (bench/spring-peer with
# -Dbench.drain.batch=true: consumerBatchEnabled, batchSize 100, receiveTimeout 100 ms, prefetch 250), round after
# round; prints each one's median rate and the ratios of the batch handler to the other two.
#
# The pinned mode puts RabbitMQ on CPU 0 (taskset -apc 0 on the broker's process, undone on exit) and each client on
# CPU 1, so no client's cost takes the broker's CPU, and compares, round after round: the extension's worker and
# event-loop (Uni) no-op subscribers taking byte[], Spring AMQP's @RabbitListener (bench/spring-peer: Spring Boot's
# defaults, the simple container, and spring.rabbitmq.listener.type=direct) and PerfTest's multiple-ack and
# single-ack drains. It prints each one's median rate, the ratios the targets name (both of ours against Spring's
# direct container, the event loop against PerfTest's multiple-ack drain) and each app's CPU per message by thread;
# then a warm drain (messages 200,000 to 400,000 of 500,000) for ours and Spring's direct container (WARM=0: none).
#
# The cpu mode, pinned as the pinned mode is, measures the client's CPU per message once warm (messages 200,000 to
# 400,000 of 500,000), round after round: the extension's event-loop byte[] subscriber with NIO (nio=true), the same
# as configured by default (the subscribers' connection in the blocking I/O mode), and PerfTest's multiple-ack drain (-q 1000 -A 100, read from /proc by thread).
# It prints each one's median CPU per message (the whole process, the reader thread, the handler's thread, the JVM's
# own threads) and the ratios of ours to PerfTest's: the figure issue 36 names.
#
# Needs RabbitMQ on 127.0.0.1:5672 (guest/guest) and the extension installed (./mvnw -DskipTests install).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-worker}
count=${2:-100000}
rounds=${3:-5}
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

# broker_ticks: the CPU time RabbitMQ (the beam.smp listening on 5672) has used so far, in clock ticks.
broker_pid=$(ss -ltnp 2>/dev/null | grep '127.0.0.1:5672 ' | grep -o 'pid=[0-9]*' | grep -o '[0-9]*' | head -1 || true)
broker_ticks() {
  if [ -n "$broker_pid" ]; then awk '{ print $14 + $15 }' "/proc/$broker_pid/stat"; else echo 0; fi
}
ticks_per_s=$(getconf CLK_TCK)
# broker_us_per_msg <ticks before>: RabbitMQ's CPU per drained message since then, in microseconds.
broker_us_per_msg() {
  awk -v a="$1" -v b="$(broker_ticks)" -v t="$ticks_per_s" -v n="$count" 'BEGIN { printf "%.1f", (b - a) * 1000000 / t / n }'
}

fill() {
  java ${FILL_OPTS:-} -cp "$amqp" "$here/Fill.java" "$queue" "$count" >/dev/null
}

# drain_app <jar>: fills the queue, drains it with the app; sets rate, cpu and rss_mib.
drain_app() {
  fill
  local log="$work/app.log" pid before
  before=$(broker_ticks)
  # The example app's outbox relay (a PostgreSQL query every second) is no part of a drain: off, as PerfTest and
  # Spring's peer have nothing like it.
  ${PIN:-} java -Xmx64m -Dquarkus.rabbitmq-subscriber.outbox.relay.enabled=false ${APP_OPTS:-} \
    -Dbench.expected="${expected:-$count}" -Dbench.warmup="${warmup:-0}" -Dquarkus.http.port=0 \
    -jar "$1" > "$log" 2>&1 &
  pid=$!
  trap "kill $pid 2>/dev/null || true; ${ON_EXIT:-}" EXIT
  for _ in $(seq 1 600); do
    grep -q "BENCH drained" "$log" && break
    kill -0 $pid 2>/dev/null || { echo "the app died:"; tail -20 "$log"; exit 1; }
    sleep 0.5
  done
  rate=$(grep -o 'BENCH drained.*' "$log" | grep -o '[0-9]* msg/s' | grep -o '[0-9]*')
  cpu=$(grep -o 'BENCH cpu per message.*' "$log" | sed 's/BENCH //')
  broker_cpu=$(broker_us_per_msg "$before")
  rss_mib=$(( $(grep VmHWM /proc/$pid/status | grep -o '[0-9]*') / 1024 ))
  kill $pid; wait $pid 2>/dev/null || true
  trap "${ON_EXIT:-}" EXIT
}

# perftest <args...>: fills the queue, drains it with PerfTest; prints its receiving rate and RabbitMQ's CPU per
# message meanwhile.
perftest() {
  fill
  local before
  before=$(broker_ticks)
  ${PIN:-} java -cp "$amqp" com.rabbitmq.perf.PerfTest -x 0 -y 1 -u "$queue" -p -D "$count" -z 300 "$@" > "$work/perftest.log" 2>&1 \
    || true
  echo "$(grep -o 'receiving rate avg: [0-9]*' "$work/perftest.log" | grep -o '[0-9]*$' | tail -1)" \
    "$(broker_us_per_msg "$before")"
}

# perftest_warm <args...>: PerfTest drains 500,000; prints its mean rate over the whole seconds that start between
# its 200,000th and 400,000th message (from its per-second lines): the counterpart of the app's warm drain, at the
# same queue depths.
perftest_warm() {
  local saved=$count
  count=500000
  perftest "$@" >/dev/null
  count=$saved
  grep -o 'received: [0-9]* msg/s' "$work/perftest.log" | grep -o '[0-9]*' \
    | awk '{ if (sum >= 200000 && sum < 400000) { n++; warm += $1 } sum += $1 } END { printf "%d", (n > 0 ? warm / n : 0) }'
}

# thread_ticks <pid>: "tid name ticks" for each of the process's threads (CPU time in clock ticks; digits dropped
# from the name, as the apps group their threads).
thread_ticks() {
  for task in /proc/"$1"/task/*; do
    [ -r "$task/stat" ] || continue
    printf '%s %s %s\n' "${task##*/}" "$(tr -d '0-9\n' < "$task/comm" | tr ' ' '_')" \
      "$(sed 's/.*) //' "$task/stat" | awk '{ print $12 + $13 }')"
  done
}

# perftest_warm_cpu <args...>: PerfTest drains 500,000 (pinned as the apps are); prints its CPU per message by thread
# between its 200,000th and 400,000th message, in µs, as the apps' BENCH line does: the JVM's own threads (JIT, GC)
# apart. The counts come from its per-second lines, the CPU from /proc at the moment each line is read.
perftest_warm_cpu() {
  fill_count=$count
  count=500000
  fill
  count=$fill_count
  ${PIN:-} java -cp "$amqp" com.rabbitmq.perf.PerfTest -x 0 -y 1 -u "$queue" -p -D 500000 -z 300 "$@" \
    > "$work/perftest-cpu.log" 2>&1 &
  local pid=$! seen=0 before="" after="" at_before=0 at_after=0
  while kill -0 $pid 2>/dev/null; do
    local sum
    sum=$(grep -so 'received: [0-9]* msg/s' "$work/perftest-cpu.log" | grep -o '[0-9]*' | awk '{ s += $1 } END { print s + 0 }')
    if [ -z "$before" ] && [ "$sum" -ge 200000 ]; then before=$(thread_ticks $pid); at_before=$sum; fi
    if [ -z "$after" ] && [ "$sum" -ge 400000 ]; then after=$(thread_ticks $pid); at_after=$sum; fi
    sleep 0.1
  done
  wait $pid 2>/dev/null || true
  if [ -z "$after" ]; then echo "(PerfTest did not reach 400,000)"; return; fi
  awk -v n=$(( at_after - at_before )) -v hz="$ticks_per_s" -v a="$after" -v b="$before" 'BEGIN {
    split(b, lines, "\n"); for (i in lines) { split(lines[i], f, " "); start[f[1]] = f[3] }
    split(a, lines, "\n"); for (i in lines) { split(lines[i], f, " "); d = f[3] - start[f[1]]
      if (d > 0) { group[f[2]] += d; total += d } }
    printf "threads %.2f", total * 1e6 / hz / n
    for (g in group) printf ", %s %.2f", g, group[g] * 1e6 / hz / n
    printf " (%d messages)\n", n }'
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
    read -r peer peer_broker < <(perftest -q 250)
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

# require_pinning <mode>: the pinned modes need taskset and the broker's process.
require_pinning() {
  if [ -z "$broker_pid" ] || ! command -v taskset >/dev/null; then
    echo "The $1 mode needs taskset and the broker's process (the beam.smp listening on 127.0.0.1:5672)" >&2
    exit 1
  fi
}

# pin_broker_and_clients: RabbitMQ on CPU 0 (undone on exit), each client started after it on CPU 1 ($PIN).
pin_broker_and_clients() {
  all_cpus="0-$(( $(nproc) - 1 ))"
  unpin() { taskset -apc "$all_cpus" "$broker_pid" >/dev/null; }
  taskset -apc 0 "$broker_pid" >/dev/null
  ON_EXIT=unpin
  trap unpin EXIT
  export PIN="taskset -c 1"
}

# median <numbers...>: the middle one (the lower middle of an even count).
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

if [ "$mode" = "batch" ]; then
  require_pinning batch
  echo "== building: the extension's event-loop byte[] subscriber, one message and 100 per call, and Spring AMQP's peer"
  ours_loop=$(build_app event-loop-bytes event-loop-bytes -Dno-observability)
  ours_batch=$(build_app event-loop-batch event-loop-batch -Dno-observability)
  mvn -q -B -f "$here/spring-peer/pom.xml" package -DskipTests >/dev/null
  spring="$here/spring-peer/target/spring-drain-peer.jar"
  pin_broker_and_clients
  export FILL_OPTS="-Dpersistent=true -Dsize=100"
  names=(event-loop event-loop-batch spring-batch)
  declare -A rates cpus
  for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds ($count messages each; RabbitMQ on CPU 0, the client on CPU 1)"
    drain_app "$ours_loop"; rates[event-loop]+="$rate "; cpus[event-loop]="$cpu"
    drain_app "$ours_batch"; rates[event-loop-batch]+="$rate "; cpus[event-loop-batch]="$cpu"
    APP_OPTS="-Dbench.drain.listener=false -Dbench.drain.batch=true" drain_app "$spring"
    rates[spring-batch]+="$rate "; cpus[spring-batch]="$cpu"
    for name in "${names[@]}"; do printf '   %-16s msg/s %s\n' "$name" "${rates[$name]}"; done
  done
  declare -A med
  echo
  echo "pinned, $count x 100 B persistent messages, $rounds rounds: median msg/s (the rounds)"
  for name in "${names[@]}"; do
    # shellcheck disable=SC2086
    med[$name]=$(median ${rates[$name]})
    printf '  %-16s %7s   (%s)\n' "$name" "${med[$name]}" "${rates[$name]% }"
  done
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
  echo "ratios of the medians (batches of 100, maxWait 100ms; Spring: consumerBatchEnabled, batchSize 100, prefetch 250):"
  echo "  event-loop-batch / event-loop   $(ratio "${med[event-loop-batch]}" "${med[event-loop]}")"
  echo "  event-loop-batch / spring-batch $(ratio "${med[event-loop-batch]}" "${med[spring-batch]}")"
  echo "CPU per message of the last round, by thread (µs):"
  for name in "${names[@]}"; do printf '  %-16s %s\n' "$name" "${cpus[$name]}"; done
  java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null
  exit 0
fi

if [ "$mode" = "cpu" ]; then
  rounds=${2:-3}
  require_pinning cpu
  echo "== building the extension's event-loop byte[] subscriber"
  ours_loop=$(build_app event-loop-bytes event-loop-bytes -Dno-observability)
  pin_broker_and_clients
  export FILL_OPTS="-Dpersistent=true -Dsize=100"
  # field <line> <name>: the figure after "name " in a CPU line ("" when absent).
  field() { echo "$1" | grep -o "$2 [0-9.]*" | head -1 | grep -o '[0-9.]*$' || true; }
  names=(nio blocking perftest)
  declare -A process reader handler jvm
  count=500000 expected=400000 warmup=200000
  for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds (warm: messages 200,000 to 400,000 of 500,000; RabbitMQ on CPU 0, the client on CPU 1)"
    APP_OPTS="-Dquarkus.rabbitmq-subscriber.nio=true" drain_app "$ours_loop"
    process[nio]+="$(field "$cpu" process) "; reader[nio]+="$(field "$cpu" rabbitmq-nio) "
    handler[nio]+="$(field "$cpu" vert.x-eventloop-thread-N) "; jvm[nio]+="$(field "$cpu" JIT+GC) "
    echo "   nio       $cpu"
    drain_app "$ours_loop"
    process[blocking]+="$(field "$cpu" process) "; reader[blocking]+="$(field "$cpu" 'AMQP Connection N.N.N.N:N') "
    handler[blocking]+="$(field "$cpu" vert.x-eventloop-thread-N) "; jvm[blocking]+="$(field "$cpu" JIT+GC) "
    echo "   blocking  $cpu"
    theirs=$(perftest_warm_cpu -q 1000 -A 100)
    process[perftest]+="$(field "$theirs" threads) "; reader[perftest]+="$(field "$theirs" AMQP_Connection) "
    handler[perftest]+="$(field "$theirs" perf-test-consu) "
    jvm[perftest]+="$(awk -v c="$(field "$theirs" C_CompilerThre)" -v v="$(field "$theirs" VM_Thread)" \
      'BEGIN { printf "%.2f", c + v }') "
    echo "   perftest  $theirs"
  done
  echo
  echo "client CPU per message once warm, µs: median of $rounds rounds (the rounds)"
  printf '  %-9s %-24s %-24s %-24s %s\n' "" process "reader thread" "handler's thread" "JVM's own (JIT, GC)"
  declare -A med
  for name in "${names[@]}"; do
    # shellcheck disable=SC2086
    med[$name]=$(median ${process[$name]})
    # shellcheck disable=SC2086
    printf '  %-9s %-24s %-24s %-24s %s\n' "$name" "${med[$name]} (${process[$name]% })" \
      "$(median ${reader[$name]}) (${reader[$name]% })" "$(median ${handler[$name]}) (${handler[$name]% })" \
      "$(median ${jvm[$name]}) (${jvm[$name]% })"
  done
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
  echo "ratios of the medians (target: <= 1.50 x PerfTest's):"
  echo "  nio / perftest       $(ratio "${med[nio]}" "${med[perftest]}")"
  echo "  blocking / perftest  $(ratio "${med[blocking]}" "${med[perftest]}")"
  java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null
  exit 0
fi

if [ "$mode" = "pinned" ]; then
  require_pinning pinned
  echo "== building: the extension's worker and event-loop byte[] subscribers, and Spring AMQP's peer"
  ours_worker=$(build_app worker-bytes worker-bytes -Dno-observability)
  ours_loop=$(build_app event-loop-bytes event-loop-bytes -Dno-observability)
  mvn -q -B -f "$here/spring-peer/pom.xml" package -DskipTests >/dev/null
  spring="$here/spring-peer/target/spring-drain-peer.jar"
  pin_broker_and_clients
  # As the issue's figures were measured: 100-byte persistent messages.
  export FILL_OPTS="-Dpersistent=true -Dsize=100"
  names=(worker event-loop spring-simple spring-direct perftest-multi perftest-single)
  declare -A rates cpus brokers
  for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds ($count messages each; RabbitMQ on CPU 0, the client on CPU 1)"
    drain_app "$ours_worker"; rates[worker]+="$rate "; cpus[worker]="$cpu"; brokers[worker]+="$broker_cpu "
    drain_app "$ours_loop"; rates[event-loop]+="$rate "; cpus[event-loop]="$cpu"; brokers[event-loop]+="$broker_cpu "
    drain_app "$spring"; rates[spring-simple]+="$rate "; cpus[spring-simple]="$cpu"
    brokers[spring-simple]+="$broker_cpu "
    APP_OPTS="-Dspring.rabbitmq.listener.type=direct" drain_app "$spring"
    rates[spring-direct]+="$rate "; cpus[spring-direct]="$cpu"; brokers[spring-direct]+="$broker_cpu "
    read -r multi multi_broker < <(perftest -q 1000 -A 100)
    rates[perftest-multi]+="$multi "; brokers[perftest-multi]+="$multi_broker "
    read -r single single_broker < <(perftest -q 250)
    rates[perftest-single]+="$single "; brokers[perftest-single]+="$single_broker "
    for name in "${names[@]}"; do
      printf '   %-16s msg/s %s  RabbitMQ µs CPU/msg %s\n' "$name" "${rates[$name]}" "${brokers[$name]}"
    done
  done
  declare -A med
  echo
  echo "pinned, $count x 100 B persistent messages, $rounds rounds: median msg/s (the rounds), and RabbitMQ's median"
  echo "CPU per message meanwhile (what a client's acks and credit cost the broker)"
  for name in "${names[@]}"; do
    # shellcheck disable=SC2086
    med[$name]=$(median ${rates[$name]})
    # shellcheck disable=SC2086
    printf '  %-16s %7s   (%s)   RabbitMQ %s µs/msg\n' "$name" "${med[$name]}" "${rates[$name]% }" \
      "$(median ${brokers[$name]})"
  done
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
  echo "ratios of the medians (targets: both of ours >= 1.10 x Spring direct; event loop >= 0.95 x PerfTest multiple-ack):"
  echo "  worker / spring-direct          $(ratio "${med[worker]}" "${med[spring-direct]}")"
  echo "  event-loop / spring-direct      $(ratio "${med[event-loop]}" "${med[spring-direct]}")"
  echo "  event-loop / perftest-multi     $(ratio "${med[event-loop]}" "${med[perftest-multi]}")"
  echo "  spring-direct / perftest-multi  $(ratio "${med[spring-direct]}" "${med[perftest-multi]}")"
  echo "CPU per message of the last round, by thread (µs; JIT+GC is the JVM's own threads, a cold drain's JIT above all):"
  for name in worker event-loop spring-simple spring-direct; do printf '  %-14s %s\n' "$name" "${cpus[$name]}"; done
  if [ "${WARM:-1}" = 0 ]; then
    java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null
    exit 0
  fi
  echo "== warm: a queue of 500,000; each app's rate from its 200,000th to its 400,000th message"
  saved_count=$count
  count=500000 expected=400000 warmup=200000
  drain_app "$ours_worker"; echo "  worker         $rate msg/s  $cpu"
  drain_app "$ours_loop"; echo "  event-loop     $rate msg/s  $cpu"
  APP_OPTS="-Dspring.rabbitmq.listener.type=direct" drain_app "$spring"; echo "  spring-direct  $rate msg/s  $cpu"
  count=$saved_count warmup=0
  echo "  perftest-multi $(perftest_warm -q 1000 -A 100) msg/s (the same messages, from its per-second rates)"
  echo "  perftest-multi CPU per message (µs, by thread, from /proc; the JIT's and GC's threads are listed by name):"
  echo "    $(perftest_warm_cpu -q 1000 -A 100)"
  unset expected
  java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null
  exit 0
fi

echo "== building the app with the $mode no-op subscriber (without Micrometer and OpenTelemetry: see the observability mode)"
app=$(build_app "$mode" "$mode" -Dno-observability)
single_ratios=()
multi_ratios=()
for round in $(seq 1 "$rounds"); do
  echo "== round $round of $rounds: $count messages drained by the app (-Xmx64m), PerfTest -x 0 -y 1 -q 250 (single"
  echo "   acks), PerfTest -q 1000 -A 100 (one multiple ack per 100 messages)"
  drain_app "$app"
  read -r theirs theirs_broker < <(perftest -q 250)
  read -r multi multi_broker < <(perftest -q 1000 -A 100)
  single_ratios+=("$(awk -v a="$rate" -v b="$theirs" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')")
  multi_ratios+=("$(awk -v a="$rate" -v b="$multi" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')")
  echo "   subscriber ${rate} msg/s (peak RSS ${rss_mib} MiB, RabbitMQ ${broker_cpu} µs CPU/msg)"
  echo "     app $cpu"
  echo "   PerfTest single-ack ${theirs} msg/s (RabbitMQ ${theirs_broker} µs CPU/msg)," \
    "multiple-ack ${multi} msg/s (RabbitMQ ${multi_broker} µs CPU/msg)"
  echo "   ratios: to single-ack ${single_ratios[-1]}, to multiple-ack ${multi_ratios[-1]}"
done
echo "== warm: a queue of 500,000; the app's rate from its 200,000th to its 400,000th message"
saved_count=$count
count=500000 expected=400000 warmup=200000
drain_app "$app"
warm_rate=$rate warm_cpu=$cpu
count=$saved_count warmup=0
unset expected
echo "== warm: the same for PerfTest single-ack and multiple-ack, from their per-second rates"
warm_single=$(perftest_warm -q 250)
warm_multi=$(perftest_warm -q 1000 -A 100)
java -cp "$amqp" "$here/Fill.java" "$queue" delete >/dev/null

echo
echo "subscriber ($mode), $count messages, $rounds rounds; ratios per round:"
echo "  to PerfTest single-ack:   ${single_ratios[*]}  median $(median "${single_ratios[@]}")"
echo "  to PerfTest multiple-ack: ${multi_ratios[*]}  median $(median "${multi_ratios[@]}")"
echo "warm (messages 200,000 to 400,000 of 500,000): subscriber ${warm_rate} msg/s, PerfTest single-ack ${warm_single}, multiple-ack" \
  "${warm_multi}: ratios $(awk -v a="$warm_rate" -v s="$warm_single" -v m="$warm_multi" \
    'BEGIN { printf "%.2f to single-ack, %.2f to multiple-ack", (s > 0 ? a / s : 0), (m > 0 ? a / m : 0) }')"
echo "  app $warm_cpu"
if [ "$mode" != "event-loop" ]; then
  echo "target: median ratio to single-ack >= 1.10"
else
  echo "target: median ratio to multiple-ack >= 0.90"
fi
