#!/usr/bin/env bash
# The super streams proof (issue 66) on RabbitMQ 4.3.6 (.ci/rabbitmq43: AMQP on 5692, streams on 5554): three
# instances of a packaged application (integration-tests/bench/superstreams/app: a super stream of 6 partitions keyed
# by a header, read under one consumer name; each entry handled is published, confirmed, to proof.results before it is
# settled), 30,000 entries over 1,000 keys, published through the first instance's RabbitPublisher. Prints each
# instance's active partitions once RabbitMQ spread them; kills the busiest instance with kill -9 a third of the way;
# prints how long until the other two are active on every partition, and which partitions moved; then checks
# proof.results with the ordered-partitions proof's checker: every key's numbers, none missing, each first handled no
# earlier than the number before it (duplicates allowed: a partition that moves is read again after the offset its last
# consumer stored).
#
#   integration-tests/bench/superstreams.sh [entries] [keys]
#
# BUILD_ONLY=1 builds the application and stops. Needs the extension installed (./mvnw -DskipTests install) and the
# 4.3.6 node started (.ci/rabbitmq43 start).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
entries=${1:-30000}
keys=${2:-1000}
work="$root/integration-tests/target/bench/superstreams"
mkdir -p "$work"
amqp=$(ls ~/.m2/repository/com/rabbitmq/amqp-client/5.37.1/amqp-client-5.37.1.jar)
slf4j=$(ls ~/.m2/repository/org/slf4j/slf4j-api/*/slf4j-api-*.jar | head -1)
cp="$amqp:$slf4j"
port=${RABBITMQ43_PORT:-5692}
stream_port=${RABBITMQ43_STREAM_PORT:-5554}
http=8291
uri=amqp://guest:guest@127.0.0.1:$port
export PROOF_PORTS=$port
export PROOF_QUEUES="proof.results,proof.super.dead,proof.super-0,proof.super-1,proof.super-2,proof.super-3,proof.super-4,proof.super-5"
export PROOF_EXCHANGES=proof.super
partitions=6

app="$here/superstreams/app/target/quarkus-app/quarkus-run.jar"
installed=~/.m2/repository/io/quarkiverse/rabbitmq-subscriber
if [ ! -f "$app" ] || [ -n "$(find "$installed" "$here/superstreams/app/src" "$here/superstreams/app/pom.xml" -newer "$app" \
    \( -name '*.jar' -o -path '*/src/*' -o -name pom.xml \) -type f -print -quit 2>/dev/null)" ]; then
  echo "== building the application"
  "$root/mvnw" -B -ntp -q -f "$here/superstreams/app/pom.xml" package -DskipTests >/dev/null
else
  echo "== the application is up to date: $app"
fi
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
java -cp "$cp" "$here/partitions/Setup.java" "$uri" 2>/dev/null

pids=()
start_instance() { # start_instance NAME PORT
  java -Xmx128m -Dproof.instance="$1" -Dquarkus.http.port="$2" -Dquarkus.rabbitmq-subscriber.url="$uri" \
    -Dquarkus.rabbitmq-subscriber.stream-port="$stream_port" -jar "$app" >"$work/$1.log" 2>&1 &
  pids+=($!)
}
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
active() { curl -s "localhost:$1/partitions" || echo '{}'; }
count_active() { active "$1" | { grep -o '"active":\[[^]]*\]' || true; } | { grep -o '[0-9]\+' || true; } | wc -l; }
# One after the other, each once it reads: RabbitMQ gives partition i to the consumer at i modulo their number, in the
# order they came, so the three end up with two partitions each.
start_instance instance-a "$http"
until curl -sf "localhost:$http/partitions" >/dev/null; do sleep 0.5; done
start_instance instance-b $((http + 1))
until curl -sf "localhost:$((http + 1))/partitions" >/dev/null; do sleep 0.5; done
start_instance instance-c $((http + 2))
until curl -sf "localhost:$((http + 2))/partitions" >/dev/null; do sleep 0.5; done
echo "== waiting until the partitions are spread"
for _ in $(seq 1 60); do
  a=$(count_active "$http"); b=$(count_active $((http + 1))); c=$(count_active $((http + 2)))
  [ $((a + b + c)) -eq $partitions ] && [ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$c" -gt 0 ] && break
  sleep 0.5
done
for p in "$http" $((http + 1)) $((http + 2)); do echo "   $(active "$p")"; done
[ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$c" -gt 0 ] || { echo "the partitions did not spread over the three" >&2; exit 1; }

java -cp "$cp" "$here/partitions/Proof.java" "$uri" check "$entries" "$keys" 180 >"$work/check.log" 2>&1 &
checker=$!
curl -sf -X POST "localhost:$http/publish?entries=$entries&keys=$keys"
results() { grep -o 'distinct [0-9]*' "$work/check.log" | tail -1 | grep -o '[0-9]*' || echo 0; }
until [ "$(results)" -ge $((entries / 3)) ]; do sleep 0.2; done
victim=$(grep -o 'by instance {[^}]*}' "$work/check.log" | tail -1 | grep -o 'instance-[abc]=[0-9]*' | sort -t= -k2 -n \
  | tail -1 | cut -d= -f1)
index=$(( $(printf '%d' "'${victim#instance-}") - 97 ))
survivors=()
for i in 0 1 2; do [ "$i" -ne "$index" ] && survivors+=($((http + i))); done
before=$(active $((http + index)))
echo "== kill -9 $victim at $(results) entries handled; it was active on: $before"
kill -9 "${pids[$index]}"
killed=$(date +%s.%N)
until [ $(( $(count_active "${survivors[0]}") + $(count_active "${survivors[1]}") )) -eq $partitions ]; do
  if [ "$(echo "$(date +%s.%N) - $killed > 120" | bc)" = 1 ]; then
    echo "the survivors did not take every partition within 120 s" >&2; exit 1
  fi
  sleep 0.2
done
echo "   the other two active on all $partitions partitions $(echo "$(date +%s.%N) - $killed" | bc) s later"
for p in "${survivors[@]}"; do echo "   $(active "$p")"; done
wait "$checker" && status=0 || status=$?
grep -A12 RESULT "$work/check.log"
java -cp "$cp" "$here/partitions/Setup.java" "$uri" delete 2>/dev/null
exit $status
