#!/usr/bin/env bash
# What a build costs on the get-by-id path, in server CPU time per request, next to another build. Both servers run
# at once on fresh SQLite stores seeded with 200 objects; after 500 warm-up gets, ROUNDS rounds alternate between
# them, each sending REQUESTS gets one after the other on one keep-alive connection (bench/requests.py) and reading the
# server's own CPU time (user + system, /proc/PID/stat) before and after. CPU time, not wall time: what the server
# spends per request does not depend on how long it waited for a core on a busy machine. The median round counts.
# (bench/instructions.sh counts instructions instead, which a busy machine does not disturb.)
#
#   BASELINE=path/to/other/cirrus bench/cost.sh                  # this tree's release build against BASELINE
#   STORE=postgres BASELINE=path/to/other/cirrus bench/cost.sh   # on a throwaway PostgreSQL, a database each
#
# Settings (environment): BASELINE (required), CANDIDATE (default: a release build of this tree), REQUESTS (3000),
# ROUNDS (7), STORE (sqlite or postgres).
# The server started second tends to cost a few per cent more on this machine: run both orders to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

requests=${REQUESTS:-3000}
rounds=${ROUNDS:-7}
[ -n "${BASELINE:-}" ] || { echo "BASELINE=path/to/cirrus is required" >&2; exit 2; }
if [ -n "${CANDIDATE:-}" ]; then binary=$CANDIDATE; else build_release; fi

pids=()
stop_all() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; wait || true; }
trap 'stop_all; cleanup' EXIT
start_store

# database LABEL: the server's --database argument: a database of its own on the benchmark's PostgreSQL, if any.
database() {
  [ -n "$database_url" ] || return 0
  psql -q "$database_url" -c "CREATE DATABASE \"$1\"" >/dev/null
  echo "--database ${database_url%/*}/$1"
}

# start LABEL BINARY: starts a server, seeds it and sets ${LABEL}_url and ${LABEL}_pid.
start() {
  local label=$1 program=$2 port
  port=$(free_port)
  CIRRUS_LIVEQUERY_PORT=0 "$program" serve --host 127.0.0.1 --port "$port" --data-dir "$work/$label-data" $(database "$label") --app-id "$app_id" \
    --app-key "$app_key" --master-key "$master_key" --log-level warning >"$work/$label.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  local address="http://127.0.0.1:$port"
  for _ in $(seq 1 200); do
    python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1] + '/1.1/date', timeout=1)" "$address" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/$label.log" >&2; exit 1; }
    sleep 0.1
  done
  python3 bench/seed.py "$address" "$app_id" "$app_key" 200 "$work/$label-ids.txt" >/dev/null
  python3 bench/requests.py "$address" "$app_id" "$app_key" get "$work/$label-ids.txt" 500
  printf -v "${label}_url" '%s' "$address"
  printf -v "${label}_pid" '%s' "$pid"
}

# cpu PID: the process's CPU time so far, in clock ticks.
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# round LABEL: microseconds of server CPU per get over one round.
round() {
  local label=$1 url_var="${1}_url" pid_var="${1}_pid" before after
  before=$(cpu "${!pid_var}")
  python3 bench/requests.py "${!url_var}" "$app_id" "$app_key" get "$work/$label-ids.txt" "$requests"
  after=$(cpu "${!pid_var}")
  python3 -c "import os, sys; print(round((int(sys.argv[2]) - int(sys.argv[1])) / os.sysconf('SC_CLK_TCK') * 1e6 / int(sys.argv[3]), 1))" "$before" "$after" "$requests"
}

start baseline "$BASELINE"
start candidate "$binary"
echo "== server CPU per get by id ($rounds rounds of $requests gets each, alternating, one keep-alive connection)"
base_results=(); cand_results=()
for i in $(seq 1 "$rounds"); do
  base_results+=("$(round baseline)")
  cand_results+=("$(round candidate)")
  echo "round $i: baseline ${base_results[-1]} µs, candidate ${cand_results[-1]} µs"
done
python3 - "$BASELINE" "$binary" "${base_results[*]}" "${cand_results[*]}" <<'PY'
import statistics, sys
base = statistics.median(map(float, sys.argv[3].split()))
cand = statistics.median(map(float, sys.argv[4].split()))
print(f"baseline  ({sys.argv[1]}): {base:.1f} µs of server CPU per get (median)")
print(f"candidate ({sys.argv[2]}): {cand:.1f} µs of server CPU per get (median)")
print(f"difference: {cand - base:+.1f} µs per get ({(cand - base) / base * 100:+.1f} %)")
PY
