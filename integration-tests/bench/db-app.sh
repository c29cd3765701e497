# Sourced by the database benchmarks (inbox-cost.sh, batch-cost.sh): start_db_app <jar> <schema> <port> <log> starts
# the packaged example app against RabbitMQ on 127.0.0.1:5672 and PostgreSQL on 127.0.0.1:5432 with its tables in a
# fresh schema, RabbitMQ pinned to CPU 0 and the app to CPU 1 where taskset is there (the array pin holds the app's
# taskset prefix, for other clients to use), and waits until it is ready. On exit the app stops, RabbitMQ gets its CPUs
# back and the schema is dropped.

# db <sql>: runs a statement in database test, as the postgres user.
db() { su postgres -c "psql -q -c '$1' test" 2>/dev/null || psql -q -h 127.0.0.1 -U postgres -c "$1" test; }

start_db_app() {
  local jar=$1 port=$3 log=$4
  db_schema=$2
  db "DROP SCHEMA IF EXISTS $db_schema CASCADE"
  db "CREATE SCHEMA $db_schema"
  broker_pid=$(ss -ltnp 2>/dev/null | grep '127.0.0.1:5672 ' | grep -o 'pid=[0-9]*' | grep -o '[0-9]*' | head -1 || true)
  pin=()
  if [ -n "$broker_pid" ] && command -v taskset >/dev/null; then
    all_cpus=$(taskset -pc "$broker_pid" | awk -F': ' '{ print $2 }')
    taskset -apc 0 "$broker_pid" >/dev/null
    pin=(taskset -c 1)
  fi
  trap stop_db_app EXIT
  "${pin[@]}" java -Dquarkus.http.port="$port" -Dquarkus.rabbitmq-subscriber.url=amqp://guest:guest@127.0.0.1:5672 \
    "-Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$db_schema" \
    "-Dquarkus.hibernate-orm.database.default-schema=$db_schema" \
    -jar "$jar" > "$log" 2>&1 &
  app_pid=$!
  for _ in $(seq 1 60); do
    curl -sf "localhost:$port/q/health/ready" >/dev/null && return 0
    sleep 1
  done
  echo "the app did not get ready: $log" >&2
  return 1
}

stop_db_app() {
  [ -n "${app_pid:-}" ] && kill "$app_pid" 2>/dev/null && wait "$app_pid" 2>/dev/null || true
  [ -n "${all_cpus:-}" ] && taskset -apc "$all_cpus" "$broker_pid" >/dev/null
  db "DROP SCHEMA IF EXISTS $db_schema CASCADE"
}
