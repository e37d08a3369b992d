#!/usr/bin/env bash
# Stops and removes the throwaway cluster started by scripts/pg-start.sh.
set -euo pipefail
port="${1:-54329}"
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
dir="/tmp/dealer-console-pg-$port"
[ -d "$dir" ] || exit 0
if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "'$bindir/pg_ctl' -D '$dir/data' -m fast stop" >/dev/null 2>&1 || true
else "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; fi
rm -rf "$dir"
