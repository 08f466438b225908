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
source bench/lib.sh

duration=${DURATION:-30s}
warmup=${WARMUP:-5s}
seed=${SEED:-10000}

ensure_wrk
build_release
start_server

echo "== seeding $seed objects"
python3 bench/seed.py "$url" "$app_id" "$app_key" "$seed" "$work/ids.txt"

wrk -t"$threads" -c"$connections" -d"$warmup" -s bench/lua/get.lua "$url" -- "$app_id" "$app_key" "$work/ids.txt" >/dev/null
run_wrk get-by-id get.lua "$duration" "$work/ids.txt"
run_wrk update update.lua "$duration" "$work/ids.txt"
run_wrk create create.lua "$duration"

describe_machine
