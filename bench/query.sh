#!/usr/bin/env bash
# Query benchmark: 1 000 000 objects in one class, indexed with `cirrus index`, then four finds under wrk load:
# indexed equality, range + order + limit 20, count, and include of three pointers (see bench/lua/query.lua).
#
#   bench/query.sh                       # 1 M objects, 30 s per scenario, 64 connections
#   ITEMS=100000 DURATION=10s bench/query.sh
#
# Settings (environment): ITEMS (1000000), DURATION (30s), WARMUP (5s), CONNECTIONS (64), THREADS (2), PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

items=${ITEMS:-1000000}
duration=${DURATION:-30s}
warmup=${WARMUP:-5s}

ensure_wrk
build_release
start_store
start_server

echo "== seeding $items items"
started=$(date +%s)
python3 bench/seed_items.py "$url" "$app_id" "$app_key" "$items"
echo "seeding took $(( $(date +%s) - started )) s"

echo "== indexing category and score"
# shellcheck disable=SC2046
"$binary" index --data-dir "$work/data" $(store_arguments) Item category score
ls -l "$work/data"

wrk -t"$threads" -c"$connections" -d"$warmup" -s bench/lua/query.lua "$url" -- "$app_id" "$app_key" equality >/dev/null
for scenario in equality range count include; do
  run_wrk "$scenario" query.lua "$duration" "$scenario"
done

describe_machine
