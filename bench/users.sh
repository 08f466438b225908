#!/usr/bin/env bash
# Load test of users and permissions with wrk: log-ins (scrypt-bound), fetches by id as a logged-in user (session and
# role lookup, ACL predicate in SQL), and finds by owner as that owner, over USERS users in ROLES roles and OBJECTS
# objects that each user or role may read.
#
#   bench/users.sh
#   USERS=1000 OBJECTS=200000 bench/users.sh
#
# Settings (environment): USERS (200), ROLES (10), OBJECTS (100000), CONNECTIONS (64), THREADS (2),
# DURATION (30s per scenario), PORT (a free one).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

duration=${DURATION:-30s}

ensure_wrk
build_release
start_store
start_server

echo "== seeding ${USERS:-200} users, ${ROLES:-10} roles, ${OBJECTS:-100000} objects"
python3 bench/seed_users.py "$url" "$app_id" "$app_key" "$master_key" "${USERS:-200}" "${ROLES:-10}" "${OBJECTS:-100000}" "$work"

# Log-ins hash with scrypt (N = 2^15), tens of milliseconds of one core each: 8 connections keep both cores busy
# without piling up requests past wrk's 2 s timeout.
connections=8 run_wrk login login.lua "$duration" "$work/users.txt"
run_wrk get-as-user session_get.lua "$duration" "$work/objects.txt"
run_wrk find-as-owner session_find.lua "$duration" "$work/finds.txt"

describe_machine
