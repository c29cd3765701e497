#!/usr/bin/env bash
# The batch handlers' database benchmark: a subscriber of the example app that inserts one row into PostgreSQL per
# call (in its own @Transactional) against a batch subscriber (@Batch(size = 100)) inserting a call's rows with one
# statement (an array parameter) in one transaction, drained in turn, round after round, in the same run
# (bench/BatchCost). Prints each one's median time per message and the median of the rounds' ratios of messages/s
# (target: >= 5x); a first round warms the JIT and is not counted. RabbitMQ is pinned to CPU 0 and the app to CPU 1 where taskset is there. A
# benchmark, not a test: run it by hand on a quiet machine. The no-op drains (a batch handler against the single
# event-loop drain and Spring AMQP's batch listener) are integration-tests/bench/drain.sh batch.
#
#   integration-tests/bench/batch-cost.sh [messages per drain] [rounds]
#
# Needs RabbitMQ on 127.0.0.1:5672 (guest/guest), PostgreSQL on 127.0.0.1:5432 (database test, user postgres) and the
# extension installed (./mvnw -DskipTests install). Its table goes in schema bench_batch, dropped at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
messages=${1:-20000}
rounds=${2:-5}
port=18191

"$root/mvnw" -q -B -f "$root/integration-tests/pom.xml" package -DskipTests -Dbench.drain=batch-cost \
  -Dquarkus.package.output-directory=bench-app-batch-cost >/dev/null
# shellcheck source=db-app.sh
. "$here/db-app.sh"
start_db_app "$root/integration-tests/target/bench-app-batch-cost/quarkus-run.jar" bench_batch $port \
  "$root/integration-tests/target/bench-batch-cost.log"
curl -sf --max-time 1800 "localhost:$port/bench/batch-cost?messages=$messages&rounds=$rounds"
