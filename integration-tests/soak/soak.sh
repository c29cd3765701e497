#!/usr/bin/env bash
# The soak run (issue 68): a packaged application (integration-tests/soak/app) on a three-node cluster for MINUTES
# minutes of mixed traffic at steady rates (Publisher.java, outside the application: a capped classic queue whose
# retries wait in a waiting queue and which sends an output per message, a capped quorum queue, a batch, ordered
# partitions, an inbox subscription on PostgreSQL, requests with replies), through faults on a schedule:
#
#   - every 4 minutes, the application's connections cut (rabbitmqctl close_connection);
#   - at 20% of the run, the node the application uses stopped (stop_app) for 20 s;
#   - at 35%, a half-open stall: that node's Erlang VM frozen (SIGSTOP) for 30 s, then let go;
#   - at 50%, the application killed (kill -9) and started again 5 s later;
#   - at 65%, the whole cluster restarted (stop_app on every node, then start_app on every node);
#   - at 80%, PostgreSQL restarted.
#
# Then it waits for the queues to drain and reports, from the publisher's confirmed ids and the application's journal
# (a PostgreSQL table every handler call writes; the inbox's in its transaction): per queue, messages published,
# handled, handled more than once, dead-lettered (the poison ones, and any other found in the dead-letter queues) and
# lost (neither handled nor dead-lettered: must be 0); the ordered queue's keys
# handled out of order (must be 0); the inbox's duplicates (the publisher sends every 100th twice; must be 0 handled
# twice); p99 latency from publish to handler per five-minute window; RSS and heap over time; every ERROR line of the
# application, classified; the consumers the stall watch found stalled. Exits non-zero when anything is lost or out of
# order.
#
#   integration-tests/soak/soak.sh [minutes]         (default 30; RATE=200 messages a second)
#
# CLUSTER=4.3 runs it on the three-node RabbitMQ 4.3.6 cluster (.ci/cluster43, 5711-5713) instead of 3.10.8's
# (.ci/cluster, 5701-5703). Not part of CI: an hour of one machine. Needs the extension installed
# (./mvnw -DskipTests install) and PostgreSQL on 127.0.0.1:5432 (database test, user postgres); its tables go in schema
# soak_<cluster>, dropped at the start of the next run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
minutes=${1:-30}
rate=${RATE:-200}
if [ "${CLUSTER:-3.10}" = "4.3" ]; then
  cluster="$root/.ci/cluster43" first=5711 nodes=(k1 k2 k3) http=8293 schema=soak_4_3
else
  cluster="$root/.ci/cluster" first=5701 nodes=(c1 c2 c3) http=8292 schema=soak_3_10
fi
work="$root/integration-tests/target/soak-${CLUSTER:-3.10}"
[ "${REPORT_ONLY:-0}" = 1 ] || { rm -rf "$work" && mkdir -p "$work"; }
addresses="127.0.0.1:$first,127.0.0.1:$((first + 1)),127.0.0.1:$((first + 2))"
amqp=$(ls ~/.m2/repository/com/rabbitmq/amqp-client/5.37.1/amqp-client-5.37.1.jar)
slf4j=$(ls ~/.m2/repository/org/slf4j/slf4j-api/*/slf4j-api-*.jar | head -1)
sql() { psql -h 127.0.0.1 -U postgres -d test -v ON_ERROR_STOP=1 -qtA -c "$1"; }
ctl() { "$cluster" ctl "$@"; }
# An argument for ctl as it is: .ci/cluster hands its arguments to a shell as one line (a connection's pid is
# <node.N.N.N>), .ci/cluster43 quotes each itself.
arg() { if [ "${CLUSTER:-3.10}" = "4.3" ]; then echo "$1"; else echo "'$1'"; fi; }
log() { echo "[$(date +%T)] $*"; }

# The report, from the publisher's ids and the journal (REPORT_ONLY=1 STARTED=<epoch seconds> prints it again).
report() {
  # What waits in the dead-letter queues, by message-id: a message there was not lost, whatever put it there.
  java -cp "$amqp:$slf4j" "$here/DeadLetterIds.java" "$first" "$work/dead.txt" soak.classic.dead soak.quorum.dead \
    2>/dev/null
  sql "SET client_min_messages = warning; DROP TABLE IF EXISTS $schema.soak_dead; CREATE TABLE $schema.soak_dead (queue varchar(64), id varchar(128))"
  [ ! -s "$work/dead.txt" ] || sql "\\copy $schema.soak_dead FROM '$work/dead.txt' WITH (DELIMITER ' ')"
  echo
  echo "== soak on RabbitMQ ${CLUSTER:-3.10} cluster: $minutes min at $rate messages/s"
  echo "queue | published | handled | handled more than once | poison (dead-lettered) | other dead-lettered | lost"
  # Lost: neither handled nor waiting in a dead-letter queue. "Other dead-lettered": not poison, and in the dead-letter
  # queue without a handling that acked it (a quorum queue counts every return, cuts' included, against its limit).
  sql "SELECT p.queue, count(DISTINCT p.id),
          (SELECT count(DISTINCT h.id) FROM $schema.soak_handled h WHERE h.queue = p.queue),
          (SELECT count(*) - count(DISTINCT h.id) FROM $schema.soak_handled h WHERE h.queue = p.queue),
          count(DISTINCT p.id) FILTER (WHERE p.poison = 1),
          count(DISTINCT p.id) FILTER (WHERE p.poison = 0 AND NOT EXISTS
            (SELECT 1 FROM $schema.soak_handled h WHERE h.id = p.id)
            AND EXISTS (SELECT 1 FROM $schema.soak_dead d WHERE d.id = p.id)),
          count(DISTINCT p.id) FILTER (WHERE p.poison = 0 AND NOT EXISTS
            (SELECT 1 FROM $schema.soak_handled h WHERE h.id = p.id)
            AND NOT EXISTS (SELECT 1 FROM $schema.soak_dead d WHERE d.id = p.id))
       FROM $schema.soak_published p GROUP BY p.queue ORDER BY p.queue" | tr '|' '\t'
  echo "dead-lettered, not poison, never acked: $(sql "SELECT string_agg(p.id, ' ') FROM $schema.soak_published p
    WHERE p.poison = 0 AND EXISTS (SELECT 1 FROM $schema.soak_dead d WHERE d.id = p.id) AND NOT EXISTS
    (SELECT 1 FROM $schema.soak_handled h WHERE h.id = p.id)")"
  outputs_lost=$(sql "SELECT count(DISTINCT p.id) FROM $schema.soak_published p WHERE p.queue = 'soak.classic'
    AND p.poison = 0 AND NOT EXISTS (SELECT 1 FROM $schema.soak_handled h WHERE h.id = p.id || '/out')")
  echo "soak.outputs (one per soak.classic message): $(sql "SELECT count(DISTINCT id) FROM $schema.soak_handled
    WHERE queue = 'soak.outputs'") handled, $(sql "SELECT count(*) - count(DISTINCT id) FROM $schema.soak_handled
    WHERE queue = 'soak.outputs'") more than once, $outputs_lost lost"
  for dead in soak.classic.dead soak.quorum.dead; do
    echo "$dead: $(ctl "${nodes[0]}" list_queues name messages 2>/dev/null | awk -v q="$dead" '$1 == q { print $2 }') waiting"
  done
  # Each key's numbers in the order their first handling: one handled before an earlier one of its key is out of order.
  out_of_order=$(sql "WITH first AS (SELECT partition_key AS k, id, min(n) AS n,
      CAST(split_part(id, ':', 2) AS bigint) AS seq FROM $schema.soak_handled WHERE queue = 'soak.ordered' GROUP BY 1, 2),
    ordered AS (SELECT seq, max(seq) OVER (PARTITION BY k ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
      FROM first)
    SELECT count(*) FROM ordered WHERE seq < before")
  echo "soak.ordered: $out_of_order message(s) handled before an earlier one of their key"
  echo "p99 latency, publish to handler, per five-minute window (ms):"
  sql "SELECT (handled_at - ${started}000) / 300000 * 5 || '-' || ((handled_at - ${started}000) / 300000 + 1) * 5
          || ' min', count(*), round(CAST(percentile_cont(0.99) WITHIN GROUP (ORDER BY handled_at - published_at) AS numeric))
       FROM $schema.soak_handled WHERE published_at > 0 GROUP BY (handled_at - ${started}000) / 300000
       ORDER BY (handled_at - ${started}000) / 300000" \
    | awk -F'|' '{ printf "  %-10s %8d handled, p99 %s ms\n", $1, $2, $3 }'
  echo "RSS and heap (MiB), per five-minute window, the highest sample:"
  awk '{ w = int($1 / 300); if ($2 > rss[w]) rss[w] = $2; if ($3 > heap[w]) heap[w] = $3; if (w > last) last = w }
    END { for (w = 0; w <= last; w++) printf "  %d-%d min: RSS %d, heap %d\n", w * 5, w * 5 + 5, rss[w] / 1024, heap[w] / 1048576 }' \
    "$work/memory.txt"
  echo "ERROR lines of the application, classified (numbers and ids as N):"
  # Classified: the time, thread, a method's parameter list, quoted names and numbers taken out, so that one kind of
  # line is one row whatever queue, node or message it names.
  grep -h ' ERROR ' "$work"/app-*.log | sed -E 's/^[0-9-]+ [0-9:,]+ ERROR //; s/ \([^)]*thread[^)]*\)//; s/#([a-zA-Z]+)\([^)]*\)/#\1/g; s/[a-zA-Z.]+#[a-zA-Z]+ /the handler /; s/\[io\.quarkiverse\.rabbitmq\.subscriber\.runtime\./[/;
      s/'"'"'[^'"'"']*'"'"'/Q/g; s/[0-9a-f]{8}-[0-9a-f-]{27}/N/g; s/[0-9]+/N/g' \
    | cut -c1-200 | sort | uniq -c | sort -rn | sed 's/^/  /' || echo "  none"
  # The stall watch's WARN: a consumer RabbitMQ stopped delivering to while it still counted it (a quorum queue's
  # after its leader moved, on brokers before 4.3), found and consuming again on a fresh channel.
  stalls=$(grep -h 'Consuming again on a fresh channel' "$work"/app-*.log || true)
  echo "consumers found stalled and consuming again (stall watch): $(grep -c . <<< "$stalls" || true)"
  [ -z "$stalls" ] || cut -c1-300 <<< "$stalls" | sed 's/^/  /'
  lost=$(sql "SELECT count(DISTINCT p.id) FROM $schema.soak_published p WHERE p.poison = 0 AND NOT EXISTS
    (SELECT 1 FROM $schema.soak_handled h WHERE h.id = p.id) AND NOT EXISTS
    (SELECT 1 FROM $schema.soak_dead d WHERE d.id = p.id)")
  inbox_twice=$(sql "SELECT count(*) - count(DISTINCT id) FROM $schema.soak_handled WHERE queue = 'soak.inbox'")
  echo "lost: $lost (+ $outputs_lost outputs); out of order: $out_of_order; inbox handled twice: $inbox_twice"
  [ "$lost" = 0 ] && [ "$outputs_lost" = 0 ] && [ "$out_of_order" = 0 ] && [ "$inbox_twice" = 0 ]
}

if [ "${REPORT_ONLY:-0}" = 1 ]; then
  started=$STARTED
  report
  exit
fi
app="$here/app/target/quarkus-app/quarkus-run.jar"
log "building the application"
"$root/mvnw" -B -ntp -q -f "$here/app/pom.xml" package -DskipTests >/dev/null

log "the cluster and PostgreSQL"
"$cluster" start >/dev/null
(exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null || pg_ctlcluster --skip-systemctl-redirect 15 main start
for queue in soak.classic soak.classic.dead soak.classic.retry soak.outputs soak.quorum soak.quorum.dead soak.quorum.retry \
  soak.batch \
  soak.ordered.0 soak.ordered.1 soak.ordered.2 soak.ordered.3 soak.inbox soak.requests; do
  ctl "${nodes[0]}" delete_queue "$queue" >/dev/null 2>&1 || true
done
sql "DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema;
     CREATE TABLE $schema.soak_handled (n bigserial PRIMARY KEY, queue varchar(64) NOT NULL, id varchar(128) NOT NULL,
       published_at bigint NOT NULL, handled_at bigint NOT NULL, attempt int NOT NULL, partition_key varchar(32));
     CREATE INDEX ON $schema.soak_handled (id);
     CREATE TABLE $schema.soak_published (queue varchar(64) NOT NULL, id varchar(128) NOT NULL, poison int NOT NULL);
     CREATE INDEX ON $schema.soak_published (queue, id);"

app_pid=
starts=0
start_app() {
  starts=$((starts + 1))
  java -Xmx256m -Dquarkus.http.port=$http \
    -Dquarkus.datasource.jdbc.url="jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$schema" \
    -Dquarkus.rabbitmq-subscriber.url="amqp://guest:guest@127.0.0.1:$first" \
    -Dquarkus.rabbitmq-subscriber.addresses="$addresses" -jar "$app" > "$work/app-$starts.log" 2>&1 &
  app_pid=$!
  for _ in $(seq 1 120); do
    curl -sf "localhost:$http/soak/heap" >/dev/null 2>&1 && return 0
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.5
  done
  echo "the application did not start: see $work/app-$starts.log" >&2
  exit 1
}
# The node serving the application's connection (its first address unless that one was away).
app_node() {
  local pid
  # Every node lists the cluster's connections; a connection's pid names the node it is on: <c2@localhost.N.N.N>.
  pid=$(ctl "${nodes[0]}" list_connections pid client_properties 2>/dev/null \
    | grep '"connection_name","soak-app"' | head -1 | cut -f1)
  node=${pid#<}
  node=${node%%@*}
  echo "${node:-${nodes[0]}}"
}
node_port() { for i in 0 1 2; do [ "${nodes[$i]}" = "$1" ] && echo $((first + i)); done; }
vm_of() { ss -ltnpH "sport = :$(node_port "$1")" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }

cut_connections() {
  local cut=0
  while read -r pid _; do
    [ -n "$pid" ] && ctl "${nodes[0]}" close_connection "$(arg "$pid")" "$(arg "soak cut")" >/dev/null 2>&1 \
      && cut=$((cut + 1))
  done < <(ctl "${nodes[0]}" list_connections pid client_properties 2>/dev/null | grep '"connection_name","soak-app' || true)
  echo "$cut"
}

fault() {
  case $1 in
    cut) log "fault: the application's connections cut ($(cut_connections))" ;;
    stop-node)
      local node; node=$(app_node)
      log "fault: node $node stopped (stop_app) for 20 s"
      ctl "$node" stop_app >/dev/null; sleep 20; ctl "$node" start_app >/dev/null
      log "      node $node started again" ;;
    stall)
      local node vm; node=$(app_node); vm=$(vm_of "$node")
      log "fault: node $node's VM (pid $vm) frozen for 30 s: a half-open stall"
      kill -STOP "$vm"; sleep 30; kill -CONT "$vm"
      log "      node $node let go" ;;
    kill-app)
      log "fault: the application killed (kill -9), started again 5 s later"
      kill -9 "$app_pid"; wait "$app_pid" 2>/dev/null || true; sleep 5; start_app
      log "      the application is back (pid $app_pid)" ;;
    cluster-restart)
      log "fault: the whole cluster restarted"
      for node in "${nodes[@]}"; do ctl "$node" stop_app >/dev/null; done
      # Started together: each waits for the others to come back with the cluster's state.
      local starting=()
      for node in "${nodes[@]}"; do ctl "$node" start_app >/dev/null & starting+=($!); done
      for job in "${starting[@]}"; do wait "$job" || true; done
      log "      the cluster is back" ;;
    pg-restart)
      log "fault: PostgreSQL restarted"
      pg_ctlcluster --skip-systemctl-redirect 15 main restart
      log "      PostgreSQL is back" ;;
  esac
}

log "soak on ${CLUSTER:-3.10} for $minutes min at $rate messages/s; work directory $work"
start_app
started=$(date +%s)
seconds=$((minutes * 60))
java -cp "$amqp:$slf4j" "$here/Publisher.java" "$addresses" "$rate" "$seconds" "$work/published.txt" \
  > "$work/publisher.out" 2>&1 &
publisher=$!
# RSS and heap every 30 s, whatever instance of the application runs.
( while kill -0 $$ 2>/dev/null; do
    # No application listening (killed, starting again): no sample this time.
    pid=$(ss -ltnpH "sport = :$http" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 || true)
    if [ -n "$pid" ]; then
      rss=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
      heap=$(curl -sf --max-time 2 "localhost:$http/soak/heap" | grep -o '"used":[0-9]*' | cut -d: -f2 || echo 0)
      echo "$(( $(date +%s) - started )) ${rss:-0} ${heap:-0}" >> "$work/memory.txt"
    fi
    sleep 30
  done ) &
sampler=$!

schedule=()
for ((t = 240; t < seconds; t += 240)); do schedule+=("$t cut"); done
schedule+=("$((seconds * 20 / 100)) stop-node" "$((seconds * 35 / 100)) stall" "$((seconds * 50 / 100)) kill-app"
  "$((seconds * 65 / 100)) cluster-restart" "$((seconds * 80 / 100)) pg-restart")
mapfile -t schedule < <(printf '%s\n' "${schedule[@]}" | sort -n)
for entry in "${schedule[@]}"; do
  at=${entry%% *}
  now=$(( $(date +%s) - started ))
  [ "$at" -gt "$now" ] && sleep $((at - now))
  fault "${entry#* }"
done
wait "$publisher" || true
cat "$work/publisher.out"

log "draining: until the journal stops growing (at most 5 min)"
sql "\\copy $schema.soak_published FROM '$work/published.txt' WITH (DELIMITER ' ')"
sql "ANALYZE $schema.soak_published"
# Drained: the work queues empty and the journal the same for 30 s (a retry waits a second; a back-off longer).
last=-1 still=0
for _ in $(seq 1 60); do
  rows=$(sql "SELECT count(*) FROM $schema.soak_handled")
  waiting=$(ctl "${nodes[0]}" list_queues name messages 2>/dev/null \
    | awk '$1 ~ /^soak\./ && $1 !~ /\.dead$/ { sum += $2 } END { print sum + 0 }')
  if [ "$rows" = "$last" ] && [ "$waiting" = 0 ]; then
    still=$((still + 1))
    [ "$still" -ge 6 ] && break
  else
    still=0
  fi
  last=$rows
  sleep 5
done
kill "$sampler" 2>/dev/null || true
kill "$app_pid" 2>/dev/null || true
wait "$app_pid" 2>/dev/null || true

report
