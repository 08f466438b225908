#!/usr/bin/env bash
# Instructions per request: `cirrus serve` under valgrind's callgrind, which counts the instructions the server
# executes (every thread, the kernel's work excluded). Unlike requests per second, the count hardly moves with what
# else runs on the machine (0.3 % between runs here), so it decides whether an optimisation pays: measure the build
# before and after, side by side.
#
#   bench/instructions.sh                                   # this tree's release build
#   BINARIES="old/cirrus new/cirrus" bench/instructions.sh  # several builds, one after the other, same requests
#   SCENARIOS="get query" REQUESTS=500 bench/instructions.sh
#
# Settings (environment): BINARIES (default: a release build of this tree), SCENARIOS ("get query update create",
# bench/requests.py), REQUESTS (1000 per scenario), SEED (1000 objects, in 50 groups of 20), WARMUP (200 requests of
# the scenario before counting), STORE (sqlite or postgres, as bench/lib.sh), KEEP (a directory to keep the callgrind
# profiles in, for callgrind_annotate).
# Each scenario: a fresh server (SQLite on a fresh data directory, or a fresh database), seeded, warmed up with the
# scenario's requests, its counters zeroed (`callgrind_control -z`), REQUESTS requests one after the other on one
# keep-alive connection, its counters dumped. Printed: instructions per request per scenario and binary.
# valgrind 3.19 cannot read the DWARF 5 of Swift's binaries and libraries, so the script runs copies without their
# debug sections (function names stay: they are in the symbol table).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

scenarios=${SCENARIOS:-"get query update create"}
requests=${REQUESTS:-1000}
seed=${SEED:-1000}
groups=$((seed / 20))
warmup=${WARMUP:-200}

command -v valgrind >/dev/null || { echo "valgrind is not installed: apt-get install valgrind" >&2; exit 1; }
if [ -n "${BINARIES:-}" ]; then
  read -r -a binaries <<<"$BINARIES"
else
  build_release
  binaries=("$binary")
fi

# Swift's runtime libraries without debug sections, found before the ones the binaries' RUNPATH names.
libraries="$work/lib"
mkdir -p "$libraries"
runtime=$(dirname "$(dirname "$(command -v swift)")")/lib/swift/linux
for library in "$runtime"/*.so; do strip --strip-debug -o "$libraries/$(basename "$library")" "$library"; done

valgrind_pid=
stop_valgrind() {
  if [ -n "$valgrind_pid" ] && kill -0 "$valgrind_pid" 2>/dev/null; then
    kill -TERM "$valgrind_pid"
    wait "$valgrind_pid" || true
  fi
  valgrind_pid=
}
trap 'stop_valgrind; cleanup' EXIT
start_store

# count BINARY SCENARIO LABEL: prints the instructions per request.
count() {
  local program=$1 scenario=$2 label=$3 port address profiles="$work/callgrind"
  rm -rf "$profiles" "$work/data"
  mkdir -p "$profiles"
  port=$(free_port)
  address="http://127.0.0.1:$port"
  local database=()
  if [ -n "$database_url" ]; then
    local name="instructions_$RANDOM$RANDOM"
    psql -q "$database_url" -c "CREATE DATABASE $name" >/dev/null
    database=(--database "${database_url%/*}/$name")
  fi
  LD_LIBRARY_PATH="$libraries" CIRRUS_LIVEQUERY_PORT=0 valgrind --tool=callgrind --callgrind-out-file="$profiles/out" \
    "$program" serve --host 127.0.0.1 --port "$port" --data-dir "$work/data" "${database[@]}" --app-id "$app_id" \
    --app-key "$app_key" --master-key "$master_key" --log-level warning >"$work/valgrind.log" 2>&1 &
  valgrind_pid=$!
  for _ in $(seq 1 600); do
    python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1] + '/1.1/date', timeout=5)" "$address" 2>/dev/null && break
    kill -0 "$valgrind_pid" 2>/dev/null || { cat "$work/valgrind.log" >&2; exit 1; }
    sleep 0.5
  done
  python3 bench/seed.py "$address" "$app_id" "$app_key" "$seed" "$work/ids.txt" "$groups" >/dev/null
  if [ "$scenario" = query ]; then
    curl -sf -X PUT "$address/1.1/schemas/Bench" -H "X-LC-Id: $app_id" -H "X-LC-Key: $master_key,master" \
      -H 'Content-Type: application/json' -d '{"indexes":{"group_1":{"group":1}}}' >/dev/null
  fi
  python3 bench/requests.py "$address" "$app_id" "$app_key" "$scenario" "$work/ids.txt" "$warmup" "$groups"
  callgrind_control -z "$valgrind_pid" >/dev/null 2>&1
  python3 bench/requests.py "$address" "$app_id" "$app_key" "$scenario" "$work/ids.txt" "$requests" "$groups"
  callgrind_control -d "$valgrind_pid" >/dev/null 2>&1
  stop_valgrind
  local dump
  dump=$(ls -t "$profiles"/out.* | head -1)
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP"
    cp "$dump" "$KEEP/$label-$scenario.callgrind"
  fi
  awk -v n="$requests" '/^summary:/ { printf "%.0f\n", $2 / n }' "$dump"
}

echo "== instructions per request (callgrind, $requests requests per scenario after $warmup, $seed objects, ${STORE:-sqlite})"
printf '| binary |'; for scenario in $scenarios; do printf ' %s |' "$scenario"; done; echo
printf '|---|'; for _ in $scenarios; do printf -- '---:|'; done; echo
for program in "${binaries[@]}"; do
  label=$(printf '%s' "$program" | tr -c 'A-Za-z0-9._' '_')
  stripped="$work/$label"
  strip --strip-debug -o "$stripped" "$program"
  printf '| %s |' "$program"
  for scenario in $scenarios; do
    printf ' %s |' "$(count "$stripped" "$scenario" "$label" | python3 -c 'import sys; print(f"{int(sys.stdin.read()):,}".replace(",", " "))')"
  done
  echo
done
