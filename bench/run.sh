#!/usr/bin/env bash
# Load test of cirrus with wrk: a release build, a seeded database, then create (POST), get-by-id (GET of random seeded
# ids) and update (PUT with Increment on random seeded ids) at 64 connections; then the ceilings (run_ceilings in
# bench/lib.sh).
#
#   bench/run.sh                      # defaults below, embedded SQLite
#   STORE=postgres bench/run.sh       # a throwaway PostgreSQL on loopback (scripts/postgres)
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
start_store
start_server

echo "== seeding $seed objects"
python3 bench/seed.py "$url" "$app_id" "$app_key" "$seed" "$work/ids.txt"

wrk -t"$threads" -c"$connections" -d"$warmup" -s bench/lua/get.lua "$url" -- "$app_id" "$app_key" "$work/ids.txt" >/dev/null
run_wrk get-by-id get.lua "$duration" "$work/ids.txt"
run_wrk update update.lua "$duration" "$work/ids.txt"
run_wrk create create.lua "$duration"

run_ceilings "$duration"
describe_machine
