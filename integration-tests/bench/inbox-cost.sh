#!/usr/bin/env bash
# The inbox's cost: four subscribers of the example app that each insert one row into PostgreSQL, drained in turn,
# round after round, in the same run (bench/InboxCost): with the inbox against the same handler in its own
# @Transactional (the target: at most 1.3x per message), and with the inbox and one output through the outbox against
# the same handler publishing it as plain Outputs. Prints each one's median time per message and the medians of the
# rounds' ratios (a first round warms the JIT and is not counted). RabbitMQ is pinned to CPU 0 and the app to CPU 1
# where taskset is there. A benchmark, not a test: run it by hand on a quiet machine.
#
#   integration-tests/bench/inbox-cost.sh [messages per drain] [rounds]
#
# Needs RabbitMQ on 127.0.0.1:5672 (guest/guest), PostgreSQL on 127.0.0.1:5432 (database test, user postgres) and the
# extension installed (./mvnw -DskipTests install). Its tables go in schema bench_inbox, dropped at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
messages=${1:-2000}
rounds=${2:-5}
port=18190

"$root/mvnw" -q -B -f "$root/integration-tests/pom.xml" package -DskipTests -Dbench.drain=inbox-cost \
  -Dquarkus.package.output-directory=bench-app-inbox-cost >/dev/null
# shellcheck source=db-app.sh
. "$here/db-app.sh"
start_db_app "$root/integration-tests/target/bench-app-inbox-cost/quarkus-run.jar" bench_inbox $port \
  "$root/integration-tests/target/bench-inbox-cost.log"
curl -sf --max-time 1800 "localhost:$port/bench/inbox-cost?messages=$messages&rounds=$rounds"

# The database's own floor, without the application: pgbench, 20 clients (the example's pool), one transaction with
# one insert against the same with the inbox's insert first, into the tables the app just used. The inbox cannot cost
# less than this ratio: it is one more statement per transaction into a table keyed at random.
if command -v pgbench >/dev/null; then
  work=$(mktemp -d)
  # BEGIN goes with the first statement, as the JDBC driver sends it (one round trip).
  printf '\\startpipeline\nBEGIN;\nINSERT INTO bench_inbox.bench_rows (refund_id) VALUES (1);\n\\endpipeline\nCOMMIT;\n' > "$work/plain.sql"
  printf '\\set k random(1, 1000000000000)\n\\startpipeline\nBEGIN;\nINSERT INTO bench_inbox.rabbitmq_subscriber_inbox (consumer, message_key, handled_at) VALUES (%s, %s, now()) ON CONFLICT DO NOTHING;\n\\endpipeline\nINSERT INTO bench_inbox.bench_rows (refund_id) VALUES (1);\nCOMMIT;\n' "'pgbench'" "'3f6c2a9e-' || :k" > "$work/inbox.sql"
  tps() { "${pin[@]}" pgbench -h 127.0.0.1 -U postgres -n -M prepared -c 20 -j 1 -T 5 -f "$1" test 2>/dev/null \
    | awk '/^tps/ { print $3 }'; }
  ratios=()
  for _ in $(seq 1 "$rounds"); do
    plain=$(tps "$work/plain.sql"); inbox=$(tps "$work/inbox.sql")
    ratios+=("$(awk -v p="$plain" -v i="$inbox" 'BEGIN { printf "%.2f", p / i }')")
  done
  rm -rf "$work"
  median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  echo "the database's floor (pgbench, no application): inbox insert + insert / insert: median ${median}x (rounds ${ratios[*]})"
fi
