#!/usr/bin/env bash
# Creates per second with no hook, with a beforeSave hook and with an afterSave hook, side by side in one run, against
# a LeanEngine app (bench/cloud_engine.py, the `leancloud` package's Engine under a threading wsgiref server), and what
# the engine alone answers: its beforeSave called directly by wrk. A release build of cirrus on a fresh store; ROUNDS
# rounds alternate the three scenarios (wrk, DURATION each, CONNECTIONS connections), and the median round counts.
# After each round's afterSave scenario, the script waits until the engine has heard every queued call (so that the
# next scenario does not share the machine with the delivery), and reports how long that took.
#
#   bench/cloud_code.sh                       # embedded SQLite
#   STORE=postgres bench/cloud_code.sh        # a throwaway PostgreSQL on loopback
#
# Settings (environment): CANDIDATE (a cirrus binary; default: a release build of this tree), CONNECTIONS (16),
# THREADS (2), DURATION (10s), ROUNDS (3), STORE (sqlite or postgres). Needs the Python venv of the tests
# (.venv-test, scripts/test makes it) for the engine.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=${CONNECTIONS:-16}
source bench/lib.sh

duration=${DURATION:-10s}
rounds=${ROUNDS:-3}
hook_key=bench-hook-key
python=.venv-test/bin/python
[ -x "$python" ] || { echo "the tests' venv (.venv-test) is missing: run scripts/test once, or make it from Tests/python/requirements.txt" >&2; exit 2; }

ensure_wrk
if [ -n "${CANDIDATE:-}" ]; then binary=$CANDIDATE; else build_release; fi
start_store

engine_port=$(free_port)
start_server --livequery-port 0 --engine-url "http://127.0.0.1:$engine_port" --hook-key "$hook_key"
LEANCLOUD_APP_ID=$app_id LEANCLOUD_APP_KEY=$app_key LEANCLOUD_APP_MASTER_KEY=$master_key LEANCLOUD_APP_HOOK_KEY=$hook_key \
  LEANCLOUD_API_SERVER=$url ENGINE_PORT=$engine_port "$python" bench/cloud_engine.py >"$work/engine.log" 2>&1 &
engine_pid=$!
trap 'kill -TERM "$engine_pid" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 1 100); do
  python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "http://127.0.0.1:$engine_port/count" 2>/dev/null && break
  sleep 0.1
done
# The server reads the engine's hooks (it started first) on the first write of each class.
for class in Bench BenchBefore BenchAfter; do
  curl -s -o /dev/null -X POST "$url/1.1/classes/$class" -H "X-LC-Id: $app_id" -H "X-LC-Key: $app_key" -H 'Content-Type: application/json' -d '{}'
done

rate() { awk '/^Requests\/sec/ { print $2 }' "$1"; }
# drain: waits until the engine has heard every after-hook call owed so far (at most 5 minutes); prints the seconds
# that took and the calls heard.
drain() {
  local started owed heard=0
  started=$(date +%s.%N)
  owed=$(curl -s "$url/1.1/classes/BenchAfter?count=1&limit=0" -H "X-LC-Id: $app_id" -H "X-LC-Key: $master_key,master" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["count"])')
  for _ in $(seq 1 1500); do
    heard=$(curl -s "http://127.0.0.1:$engine_port/count")
    [ "$heard" -ge "$owed" ] && break
    sleep 0.2
  done
  echo "$(python3 -c "import sys, time; print(round(time.time() - float(sys.argv[1]), 1))" "$started")s for $heard/$owed"
}
declare -A results
drains=()
for round in $(seq 1 "$rounds"); do
  for scenario in Bench BenchBefore BenchAfter; do
    wrk -t"$threads" -c"$connections" -d"$duration" -s bench/lua/create.lua "$url" -- "$app_id" "$app_key" "$scenario" >"$work/$scenario-$round.txt"
    grep -q "Non-2xx\|Socket errors" "$work/$scenario-$round.txt" && echo "!! $scenario round $round had failed requests" >&2
    results[$scenario]+="$(rate "$work/$scenario-$round.txt") "
  done
  # The queued after-hook calls reach the engine before anything else is measured: the scenarios stay apart.
  drains+=("$(drain)")
  # The engine alone: its beforeSave hook called directly, as Cirrus calls it.
  wrk -t"$threads" -c"$connections" -d"$duration" -s bench/lua/hook.lua "http://127.0.0.1:$engine_port" -- "$app_id" "$master_key" "$hook_key" \
    >"$work/engine-$round.txt"
  results[engine]+="$(rate "$work/engine-$round.txt") "
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo
echo "== creates per second, median of $rounds rounds of $duration ($connections connections, ${STORE:-sqlite})"
printf '%-40s %10s   rounds: %s\n' "no hook (Bench)" "$(echo "${results[Bench]}" | median)" "${results[Bench]}"
printf '%-40s %10s   rounds: %s\n' "beforeSave (BenchBefore)" "$(echo "${results[BenchBefore]}" | median)" "${results[BenchBefore]}"
printf '%-40s %10s   rounds: %s\n' "afterSave (BenchAfter)" "$(echo "${results[BenchAfter]}" | median)" "${results[BenchAfter]}"
printf '%-40s %10s   rounds: %s\n' "the engine's beforeSave alone" "$(echo "${results[engine]}" | median)" "${results[engine]}"
echo "after each afterSave round, the engine had heard every queued call after: ${drains[*]}"
describe_machine
