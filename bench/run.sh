#!/usr/bin/env bash
# Load test of cirrus with wrk: a release build, a seeded SQLite database, then create (POST), get-by-id (GET of
# random seeded ids) and update (PUT with Increment on random seeded ids) at 64 connections.
#
#   bench/run.sh                      # defaults below
#   DURATION=60s SEED=50000 bench/run.sh
#
# Settings (environment): CONNECTIONS (64), THREADS (2, wrk threads), DURATION (30s per scenario),
# WARMUP (5s of gets first, not reported), SEED (10000 objects), PORT (a free one).
# Everything runs on loopback; the server and wrk share the machine's cores.
set -euo pipefail
cd "$(dirname "$0")/.."

connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
duration=${DURATION:-30s}
warmup=${WARMUP:-5s}
seed=${SEED:-10000}
app_id=bench-app-id
app_key=bench-app-key

if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  else
    echo "wrk is not installed: apt-get install wrk" >&2
    exit 1
  fi
fi

echo "== building cirrus (release, .build-release)"
swift build -c release --product cirrus --scratch-path .build-release
binary=.build-release/release/cirrus

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

port=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
url="http://127.0.0.1:$port"
"$binary" serve --host 127.0.0.1 --port "$port" --data-dir "$work/data" \
  --app-id "$app_id" --app-key "$app_key" --master-key bench-master-key --log-level warning >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do
  if python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1] + '/1.1/date', timeout=1)" "$url" 2>/dev/null; then
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done

echo "== seeding $seed objects"
python3 bench/seed.py "$url" "$app_id" "$app_key" "$seed" "$work/ids.txt"

run() {
  local name=$1 script=$2 length=$3
  shift 3
  echo
  echo "== $name: $connections connections, $threads threads, $length"
  wrk -t"$threads" -c"$connections" -d"$length" --latency -s "bench/lua/$script" "$url" -- "$app_id" "$app_key" "$@" \
    | tee "$work/$name.txt"
  if grep -q "Non-2xx\|Socket errors" "$work/$name.txt"; then
    echo "!! $name had failed requests (see above)" >&2
  fi
}

wrk -t"$threads" -c"$connections" -d"$warmup" -s bench/lua/get.lua "$url" -- "$app_id" "$app_key" "$work/ids.txt" >/dev/null
run get-by-id get.lua "$duration" "$work/ids.txt"
run update update.lua "$duration" "$work/ids.txt"
run create create.lua "$duration"

echo
echo "== machine"
echo "CPU:     $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
echo "RAM:     $(free -h | awk '/^Mem:/ {print $2}')"
echo "Swift:   $(swift --version 2>/dev/null | head -1)"
echo "SQLite:  $(dpkg-query -W -f '${Version}' libsqlite3-0 2>/dev/null || echo unknown) (system libsqlite3, linked by GRDB)"
echo "wrk:     $(wrk --version 2>&1 | head -1)"
echo "Kernel:  $(uname -sr)"
