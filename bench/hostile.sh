#!/usr/bin/env bash
# Hostile clients: 64 clients at once each send a 20 MB body without credentials (announced with Content-Length, then
# chunked), then with the app key beyond the body limit, while the server's resident memory is read before, at its
# peak and after (bench/hostile_bodies.py). Credentials are checked from the headers and an oversized body refused
# before it is read, so the memory must not grow.
#
#   bench/hostile.sh                          # a release build of this tree, SQLite
#   BINARY=path/to/cirrus bench/hostile.sh    # another build (an older commit, to compare)
#
# Settings (environment): CLIENTS (64), SIZE_MB (20), STORE (sqlite or postgres), BINARY.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

if [ -n "${BINARY:-}" ]; then binary=$BINARY; else build_release; fi
start_store
start_server
python3 bench/hostile_bodies.py "$url" "$server_pid" "$app_id" "$app_key" "${CLIENTS:-64}" "${SIZE_MB:-20}"
