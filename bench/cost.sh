#!/usr/bin/env bash
# What a build costs on the get-by-id path, in instructions per request, next to another build: each server runs under
# valgrind's callgrind (instruction counts do not depend on how busy the machine is) on a fresh SQLite store seeded with
# 200 objects; after 200 warm-up gets the counters are zeroed, REQUESTS gets are sent one after the other on one
# keep-alive connection (bench/gets.py), and the counters read. Both builds get the same requests.
#
#   BASELINE=path/to/other/cirrus bench/cost.sh        # this tree's release build against BASELINE
#
# Settings (environment): BASELINE (required), CANDIDATE (default: a release build of this tree), REQUESTS (2000).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

requests=${REQUESTS:-2000}
[ -n "${BASELINE:-}" ] || { echo "BASELINE=path/to/cirrus is required" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
if [ -n "${CANDIDATE:-}" ]; then binary=$CANDIDATE; else build_release; fi

# instructions LABEL BINARY: prints the instructions per get of BINARY.
instructions() {
  local label=$1 program=$2 port pid
  port=$(free_port)
  local address="http://127.0.0.1:$port"
  valgrind --tool=callgrind --callgrind-out-file="$work/$label.out" "$program" serve --host 127.0.0.1 --port "$port" \
    --data-dir "$work/$label-data" --app-id "$app_id" --app-key "$app_key" --master-key "$master_key" --log-level warning \
    >"$work/$label.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1] + '/1.1/date', timeout=5)" "$address" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/$label.log" >&2; exit 1; }
    sleep 0.5
  done
  python3 bench/seed.py "$address" "$app_id" "$app_key" 200 "$work/$label-ids.txt" >/dev/null
  python3 bench/gets.py "$address" "$app_id" "$app_key" "$work/$label-ids.txt" 200
  callgrind_control -z "$pid" >/dev/null
  python3 bench/gets.py "$address" "$app_id" "$app_key" "$work/$label-ids.txt" "$requests"
  callgrind_control -d "$pid" >/dev/null
  kill -TERM "$pid"
  wait "$pid" || true
  # The dump after zeroing is the last file; its "totals" (or "summary") line holds the instructions.
  local dump
  dump=$(ls -t "$work/$label.out"* | grep -v '\.out$' | head -1)
  awk -v n="$requests" '/^(totals|summary):/ { printf "%.0f\n", $2 / n; exit }' "$dump"
}

echo "== instructions per get by id ($requests gets, one keep-alive connection, callgrind)"
baseline=$(instructions baseline "$BASELINE")
candidate=$(instructions candidate "$binary")
echo "baseline  ($BASELINE): $baseline"
echo "candidate ($binary): $candidate"
python3 -c "import sys; b, c = int(sys.argv[1]), int(sys.argv[2]); print(f'difference: {c - b:+d} instructions per request ({(c - b) / b * 100:+.1f} %)')" "$baseline" "$candidate"
