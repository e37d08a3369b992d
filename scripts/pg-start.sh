#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 cluster on 127.0.0.1 (as the postgres user) and prints
# its DATABASE_URL. Usage: scripts/pg-start.sh [port]   Stop: scripts/pg-stop.sh [port]
set -euo pipefail
port="${1:-54329}"
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bindir/initdb" ] || { echo "PostgreSQL server binaries not found" >&2; exit 1; }
dir="/tmp/dealer-console-pg-$port"
run() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
if [ ! -d "$dir" ]; then
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  run "'$bindir/initdb' -D '$dir/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null"
fi
if ! run "'$bindir/pg_ctl' -D '$dir/data' status" >/dev/null 2>&1; then
  run "'$bindir/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k /tmp -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c wal_recycle=off\" start" >/dev/null
fi
echo "postgres://postgres@127.0.0.1:$port/postgres"
