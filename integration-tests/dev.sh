#!/usr/bin/env bash
# Runs the refunds example in dev mode: its refunds, inbox and outbox in PostgreSQL on localhost:5432 (database test,
# user postgres) when it answers, else in an embedded H2 database in memory, saying so. Extra arguments go to Maven.
set -euo pipefail
cd "$(dirname "$0")"
if (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  database=postgresql
else
  echo "PostgreSQL does not answer on localhost:5432: the refunds example keeps its data in an embedded H2 database" \
    "(in memory, gone when it stops)"
  database=h2
fi
exec ../mvnw -B quarkus:dev "-Drefunds.database=$database" "$@"
