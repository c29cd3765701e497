#!/usr/bin/env bash
# The ordered-partitions proof (issue 40) on a three-node RabbitMQ 4.3.6 cluster (.ci/cluster43, ports 5711-5713):
# three instances of a packaged application (integration-tests/bench/partitions/app: 16 quorum partitions keyed by a
# header; each entry handled is published, confirmed, to proof.results before its ack), 30,000 entries over 1,000
# keys. Prints each instance's active partitions once spread; kills the busiest instance with kill -9 a third of the way,
# stops one node (stop_app) two thirds of the way and starts it again 20 s later; prints how long until the
# survivors are active on every partition; and checks proof.results: every key's numbers in order, none missing
# (duplicates allowed: at least once).
#
#   integration-tests/bench/partitions.sh [entries] [keys]
#
# NODE=k1 stops the node every instance is connected to (the first address) instead of k2: they reconnect to another
# (.ci/run does, and NODE=c1 on 3.10).
# CLUSTER=3.10 runs it on the three-node 3.10.8 cluster (.ci/cluster, ports 5701-5703, nodes c1-c3), where single
# active consumer ignores priorities: the partitions stay where they were first consumed, and the run checks order and
# losses only.
#
# Each cluster's run has a work directory and HTTP ports of its own, so the two can run at once (.ci/run does);
# BUILD_ONLY=1 builds the application and stops (.ci/run builds it once, before both).
#
# Needs the extension installed (./mvnw -DskipTests install) and the 4.3.6 root (.ci/rabbitmq43 builds it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
entries=${1:-30000}
keys=${2:-1000}
work="$root/integration-tests/target/bench/partitions-${CLUSTER:-4.3}"
mkdir -p "$work"
amqp=$(ls ~/.m2/repository/com/rabbitmq/amqp-client/5.37.1/amqp-client-5.37.1.jar)
slf4j=$(ls ~/.m2/repository/org/slf4j/slf4j-api/*/slf4j-api-*.jar | head -1)
cp="$amqp:$slf4j"
if [ "${CLUSTER:-4.3}" = "3.10" ]; then
  cluster="$root/.ci/cluster" first=5701 node=${NODE:-c2} http=8191
else
  cluster="$root/.ci/cluster43" first=5711 node=${NODE:-k2} http=8091
fi
uri=amqp://guest:guest@127.0.0.1:$first
export PROOF_PORTS="$first,$((first + 1)),$((first + 2))"
addresses="127.0.0.1:$first,127.0.0.1:$((first + 1)),127.0.0.1:$((first + 2))"
spreads=$([ "${CLUSTER:-4.3}" = "3.10" ] && echo no || echo yes)

app="$here/partitions/app/target/quarkus-app/quarkus-run.jar"
# Built again only when the installed extension or the application changed since (.ci/run runs this twice in a row).
installed=~/.m2/repository/io/quarkiverse/rabbitmq-subscriber
if [ ! -f "$app" ] || [ -n "$(find "$installed" "$here/partitions/app/src" "$here/partitions/app/pom.xml" -newer "$app" \
    \( -name '*.jar' -o -path '*/src/*' -o -name pom.xml \) -type f -print -quit 2>/dev/null)" ]; then
  echo "== building the application"
  "$root/mvnw" -B -ntp -q -f "$here/partitions/app/pom.xml" package -DskipTests >/dev/null
else
  echo "== the application is up to date: $app"
fi
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
echo "== the cluster"
"$cluster" start >/dev/null
java -cp "$cp" "$here/partitions/Setup.java" "$uri" 2>/dev/null

pids=()
start_instance() { # start_instance NAME PORT
  java -Xmx128m -Dquarkus.rabbitmq-subscriber.instance-id="$1" -Dquarkus.http.port="$2" \
    -Dquarkus.rabbitmq-subscriber.url="$uri" -Dquarkus.rabbitmq-subscriber.addresses="$addresses" -jar "$app" \
    >"$work/$1.log" 2>&1 &
  pids+=($!)
}
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  "$cluster" ctl "$node" start_app >/dev/null 2>&1 || true
}
trap cleanup EXIT
# On a failure: how the results came in, what the broker holds per partition and who consumes it, and what the
# instances logged beyond the expected churn (a stall shows as a partition with messages ready and nobody taking them).
diagnose() {
  local alive
  alive=$([ "$node" = "${node%1}" ] && echo "${node%?}1" || echo "${node%?}2")
  echo "== diagnostics: progress (every 10 s, then the last 5 s)"
  grep '^t+' "$work/check.log" | awk 'NR % 10 == 0' | cut -c1-200
  grep '^t+' "$work/check.log" | tail -5 | cut -c1-200
  echo "== diagnostics: queues on $alive (name, ready, unacknowledged, consumers, leader, members, state)"
  "$cluster" ctl "$alive" list_queues name messages_ready messages_unacknowledged consumers leader members state \
    --no-table-headers 2>&1 | grep 'proof\.' | sort || true
  echo "== diagnostics: consumers on $alive (queue, channel, tag, prefetch, active, status)"
  "$cluster" ctl "$alive" list_consumers queue_name channel_pid consumer_tag prefetch_count active activity_status \
    --no-table-headers 2>&1 | sort || true
  for log in "$work"/instance-*.log; do
    echo "== diagnostics: $(basename "$log"): WARN/ERROR beyond the expected resubscription churn, and the consumes-again lines"
    grep -E ' (WARN|ERROR) | consumes queue .* again|Reconnected' "$log" | grep -v 'still does not consume' | cut -c1-400 \
      | tail -60 || true
  done
}
start_instance instance-a "$http"
start_instance instance-b $((http + 1))
start_instance instance-c $((http + 2))
active() { curl -s "localhost:$1/partitions" || echo '{}'; }
count_active() { active "$1" | { grep -o '"active":\[[^]]*\]' || true; } | { grep -o '[0-9]\+' || true; } | wc -l; }
if [ "$spreads" = yes ]; then
  echo "== waiting until the partitions are spread (each instance claims its share after 6 s)"
  for i in $(seq 1 60); do
    a=$(count_active "$http"); b=$(count_active $((http + 1))); c=$(count_active $((http + 2)))
    [ $((a + b + c)) -eq 16 ] && [ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$c" -gt 0 ] && break
    sleep 1
  done
  for port in "$http" $((http + 1)) $((http + 2)); do echo "   $(active $port)"; done
else
  until curl -sf "localhost:$http/partitions" >/dev/null && curl -sf "localhost:$((http + 1))/partitions" >/dev/null \
    && curl -sf "localhost:$((http + 2))/partitions" >/dev/null; do sleep 0.5; done
fi
java -cp "$cp" "$here/partitions/Proof.java" "$uri" check "$entries" "$keys" 240 >"$work/check.log" 2>&1 &
checker=$!
java -cp "$cp" "$here/partitions/Proof.java" "$uri" publish "$entries" "$keys"
results() { grep -o 'distinct [0-9]*' "$work/check.log" | tail -1 | grep -o '[0-9]*' || echo 0; }
until [ "$(results)" -ge $((entries / 3)) ]; do sleep 0.5; done
# The instance that handled the most so far (on 3.10 the one that consumed first holds every partition).
victim=$(grep -o 'by instance {[^}]*}' "$work/check.log" | tail -1 | grep -o 'instance-[abc]=[0-9]*' | sort -t= -k2 -n \
  | tail -1 | cut -d= -f1)
index=$(( $(printf '%d' "'${victim#instance-}") - 97 ))
survivors=()
for i in 0 1 2; do [ "$i" -ne "$index" ] && survivors+=($((http + i))); done
echo "== kill -9 $victim at $(results) entries handled"
kill -9 "${pids[$index]}"
killed=$(date +%s.%N)
if [ "$spreads" = yes ]; then
  until [ $(( $(count_active "${survivors[0]}") + $(count_active "${survivors[1]}") )) -eq 16 ]; do sleep 0.2; done
  echo "   the other two active on all 16 partitions $(echo "$(date +%s.%N) - $killed" | bc) s later"
  for port in "${survivors[@]}"; do echo "   $(active "$port")"; done
fi
until [ "$(results)" -ge $((2 * entries / 3)) ]; do sleep 0.5; done
echo "== stopping node $node at $(results) entries handled"
"$cluster" ctl "$node" stop_app >/dev/null

sleep 20
echo "== starting node $node again at $(results) entries handled"
"$cluster" ctl "$node" start_app >/dev/null
wait "$checker" && status=0 || status=$?
grep -A12 RESULT "$work/check.log"
for port in "${survivors[@]}"; do echo "   $(active "$port")"; done
[ "$status" -eq 0 ] || diagnose
java -cp "$cp" "$here/partitions/Setup.java" "$uri" delete 2>/dev/null
exit $status
