#!/usr/bin/env bash
# Push notifications (issue 19): how fast one `cirrus serve` sends a push to N iOS installations through a local APNs
# stand-in (HTTP/2 over TLS, ES256 provider tokens checked), and whether its memory stays flat while it sends (the
# sender reads the audience from the store 500 installations at a time, never whole).
#
#   bench/push.sh                          # N = 10 000 and 100 000, embedded SQLite
#   COUNTS="100000 300000" bench/push.sh
#   STORE=postgres bench/push.sh           # a throwaway PostgreSQL on loopback (scripts/postgres)
#   PROFILE=1 bench/push.sh                # also perf record -e cpu-clock -g of cirrus during the largest N's send
#
# Settings (environment): COUNTS ("10000 100000"), STORE (sqlite or postgres), PROFILE (0), BINARY (a cirrus binary
# to measure, e.g. another commit's, instead of building this tree's; the stand-ins are still this tree's
# PushStandIns, or STAND_INS=<path> for another).
# Per N: a fresh cirrus (release build, fresh data directory, or a fresh database on the one PostgreSQL) pointed at
# the stand-ins, N installations seeded through POST /1.1/batch (bench/seed_installations.py: deviceType ios, unique
# 64-hex tokens, channel `bench`; timed), then one POST /1.1/push to the channel with the master key, its record
# polled until `done` and the server's RSS sampled every 0.5 s from 3 s before the push until then
# (bench/push_send.py). The stand-in only counts what it accepts (PUT /behaviour keepsDeliveries: false).
# Printed per N: seconds to send (the record's updatedAt - createdAt), notifications/s, the record's successes and
# errors, the stand-in's accepted count (must be N; requests it refused are reported), the server's RSS (VmRSS) and
# anonymous memory (RssAnon) before the push, at its peak while sending and after, the CPU seconds of cirrus and of
# the stand-ins during the send (and per notification), and the seeding rate.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

counts=${COUNTS:-"10000 100000"}
profile=${PROFILE:-0}

stand_ins_pid=
finish() {
  if [ -n "$stand_ins_pid" ] && kill -0 "$stand_ins_pid" 2>/dev/null; then
    kill -TERM "$stand_ins_pid"
    wait "$stand_ins_pid" || true
  fi
  cleanup  # bench/lib.sh: the cirrus server, PostgreSQL, $work
}
trap finish EXIT


for tool in python3 curl; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done
if [ "$profile" = 1 ] && ! command -v perf >/dev/null; then
  echo "PROFILE=1 needs perf (apt-get install linux-perf)" >&2
  exit 1
fi

if [ -n "${BINARY:-}" ]; then binary=$BINARY; else build_release; fi
stand_ins=${STAND_INS:-}
if [ -z "$stand_ins" ]; then
  echo "== building PushStandIns (release, .build-release)"
  swift build --package-path Server -c release --product PushStandIns --scratch-path .build-release
  stand_ins=.build-release/release/PushStandIns
fi
start_store
base_database_url=$database_url

echo "== APNs and FCM stand-ins"
"$stand_ins" "$work/stand-ins" >"$work/stand-ins.log" 2>&1 &
stand_ins_pid=$!
for _ in $(seq 1 600); do
  [ -f "$work/stand-ins/stand-ins.json" ] && break
  kill -0 "$stand_ins_pid" 2>/dev/null || { cat "$work/stand-ins.log" >&2; exit 1; }
  sleep 0.05
done
[ -f "$work/stand-ins/stand-ins.json" ] || { echo "PushStandIns did not start" >&2; exit 1; }
stand_in() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/stand-ins/stand-ins.json" "$1"; }
control_url=$(stand_in controlURL)
curl -fsS -X PUT "$control_url/behaviour" -H 'Content-Type: application/json' \
  -d '{"apns": {"keepsDeliveries": false}}' >/dev/null
push_arguments=(
  --apns-key-file "$work/stand-ins/apns-key.p8" --apns-key-id "$(stand_in keyId)" --apns-team-id "$(stand_in teamId)"
  --apns-topic "$(stand_in topic)" --apns-url "$(stand_in apnsURL)" --push-ca-file "$work/stand-ins/ca.pem"
)
echo "stand-ins: pid $stand_ins_pid, APNs $(stand_in apnsURL), control $control_url"

largest=0
for n in $counts; do [ "$n" -gt "$largest" ] && largest=$n; done

results=()
for n in $counts; do
  if [ -n "$base_database_url" ]; then  # a fresh database per N on the same cluster
    psql "$base_database_url" -q -c "CREATE DATABASE push_$n"
    database_url=${base_database_url%/postgres}/push_$n
  fi
  start_server "${push_arguments[@]}"
  echo
  echo "== N=$n: cirrus pid $server_pid, $url, ${STORE:-sqlite}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  python3 bench/seed_installations.py "$url" "$app_id" "$master_key" "$n" >"$work/seed-$n.json"
  echo "seeded: $(cat "$work/seed-$n.json")"
  extra=()
  [ "$profile" = 1 ] && [ "$n" = "$largest" ] && extra=(--profile "$work/perf.data")
  if python3 bench/push_send.py "$url" "$app_id" "$master_key" "$server_pid" "$stand_ins_pid" "$control_url" "$n" \
    "${extra[@]}" >"$work/push-$n.json"; then
    :
  else
    echo "!! the push at N=$n did not finish (server log: $(tail -3 "$work/server.log"))" >&2
  fi
  cat "$work/push-$n.json"
  echo "load average after the send: $(cut -d' ' -f1-3 /proc/loadavg)"
  results+=("$work/push-$n.json")
  stop_cirrus
done

echo
echo "== push to N installations (${STORE:-sqlite}), one cirrus, APNs stand-in on loopback"
python3 - "${results[@]}" <<'EOF'
import json, sys
print("| N | seeding | send | notifications/s | successes / errors / invalid | accepted by APNs | RSS before | peak | after | anon before | peak | after | cirrus CPU | stand-ins CPU |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
failures = 0
for path in sys.argv[1:]:
    try:
        r = json.load(open(path))
        seed = json.load(open(path.replace("/push-", "/seed-")))
    except (OSError, ValueError):
        print(f"| {path.rsplit('/', 1)[-1]} | failed (see above) |")
        failures += 1
        continue
    ok = r["status"] == "done" and r["accepted"] == r["n"] and r["successes"] == r["n"] and not r.get("refused")
    failures += not ok
    print(f"| {r['n']:,} | {seed['seconds']} s ({seed['per_second']:,}/s) | {r['seconds']} s | {r['per_second']:,} | "
          f"{r['successes']:,} / {r['errors']:,} / {r['invalid']:,} | {r['accepted']:,}{'' if ok else ' !!'} | "
          f"{r['rss_before_mb']:.0f} MB | {r['rss_peak_mb']:.0f} MB | {r['rss_after_mb']:.0f} MB | "
          f"{r['anon_before_mb']:.0f} MB | {r['anon_peak_mb']:.0f} MB | {r['anon_after_mb']:.0f} MB | "
          f"{r['server_cpu_s']} s ({r['server_cpu_s'] / r['n'] * 1e6:.0f} µs each) | "
          f"{r['stand_ins_cpu_s']} s ({r['stand_ins_cpu_s'] / r['n'] * 1e6:.0f} µs each) |".replace(",", " "))
for path in sys.argv[1:]:
    try:
        r = json.load(open(path))
    except (OSError, ValueError):
        continue
    samples = r["rss_samples_mb"]
    step = max(1, -(-len(samples) // 40))  # at most 40 values a line
    if r.get("refused"):
        print(f"!! N={r['n']}: the stand-in refused {r['refused']} requests")
    print(f"N={r['n']}: RSS while sending, every {step * 0.5:g} s (MB): {' '.join(f'{m:.0f}' for m in samples[::step])}")
if failures:
    print(f"!! {failures} run(s) did not deliver to every installation (status done, successes and accepted = N)")
EOF

report_perf push "the send at N=$largest"
describe_machine
