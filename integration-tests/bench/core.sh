#!/usr/bin/env bash
# The delivery core's three figures, from one run: the pinned drain (drain.sh pinned: 100,000 x 100 B, RabbitMQ on
# CPU 0, each client on CPU 1, round after round) and the pinned latency at 1,000 msg/s (latency.sh), then the goals
# side by side:
#   - the worker and the event-loop handler, each at least 1.10 x Spring AMQP's direct container (drain);
#   - the event-loop handler at least 0.95 x PerfTest's multiple-ack drain;
#   - the p99 at 1,000 msg/s of both, at most Spring's direct container's.
#
#   integration-tests/bench/core.sh [drain rounds] [latency rounds] [seconds per latency run]
#
# Defaults: 3 drain rounds, 5 latency rounds of 20 s. Needs what drain.sh and latency.sh need (RabbitMQ on
# 127.0.0.1:5672, taskset, jcmd, the extension installed). Every run's output is kept in integration-tests/target/bench.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
drain_rounds=${1:-3}
latency_rounds=${2:-5}
seconds=${3:-20}
work="$root/integration-tests/target/bench"
mkdir -p "$work"

echo "== drain: drain.sh pinned 100000 $drain_rounds"
WARM=0 "$here/drain.sh" pinned 100000 "$drain_rounds" | tee "$work/core-drain.log"
echo "== latency: latency.sh $latency_rounds $seconds at 1,000 msg/s"
RATES=1000 "$here/latency.sh" "$latency_rounds" "$seconds" | tee "$work/core-latency.log"

# figure <log> <pattern>: the last number on the line the pattern names.
figure() { grep -E "$2" "$1" | tail -1 | grep -oE '[0-9]+\.[0-9]+' | tail -1; }
worker_drain=$(figure "$work/core-drain.log" 'worker / spring-direct')
loop_drain=$(figure "$work/core-drain.log" 'event-loop / spring-direct')
loop_perftest=$(figure "$work/core-drain.log" 'event-loop / perftest-multi')
p99_line=$(grep 'p99 ours / Spring direct' "$work/core-latency.log" | tail -1)
loop_p99=$(echo "$p99_line" | grep -oE 'event loop [0-9.]+' | grep -oE '[0-9.]+$')
worker_p99=$(echo "$p99_line" | grep -oE 'worker [0-9.]+' | grep -oE '[0-9.]+$')
verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN { ok = op == ">=" ? v >= t : v <= t; print ok ? "met" : "NOT met" }'; }

echo
echo "the core's goals, medians of this run's rounds:"
printf '  drain, worker / Spring direct          %s  (>= 1.10: %s)\n' "$worker_drain" "$(verdict "$worker_drain" 1.10 '>=')"
printf '  drain, event loop / Spring direct      %s  (>= 1.10: %s)\n' "$loop_drain" "$(verdict "$loop_drain" 1.10 '>=')"
printf '  drain, event loop / PerfTest multi-ack %s  (>= 0.95: %s)\n' "$loop_perftest" "$(verdict "$loop_perftest" 0.95 '>=')"
printf '  p99 at 1,000 msg/s, worker / Spring     %s  (<= 1.00: %s)\n' "$worker_p99" "$(verdict "$worker_p99" 1.00 '<=')"
printf '  p99 at 1,000 msg/s, event loop / Spring %s  (<= 1.00: %s)\n' "$loop_p99" "$(verdict "$loop_p99" 1.00 '<=')"
