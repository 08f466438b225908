#!/usr/bin/env bash
# Import benchmark: generates a LeanCloud-style export of ROWS objects (JSON lines, every value type, in a .tar.gz)
# and times `cirrus import` of it into a fresh store, reporting rows per second and the peak memory (maximum resident
# set size from /usr/bin/time), which must not grow with the export.
#
#   bench/import.sh                      # 1 000 000 rows, SQLite
#   ROWS=300000 STORE=postgres bench/import.sh
#
# Settings (environment): ROWS (1000000), STORE (sqlite or postgres), BATCH (300, objects per transaction).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

rows=${ROWS:-1000000}
batch=${BATCH:-300}

build_release
start_store
command -v /usr/bin/time >/dev/null || { echo "/usr/bin/time is needed (apt-get install time)" >&2; exit 1; }

echo "== generating $rows rows"
mkdir -p "$work/export"
python3 - "$rows" "$work/export" <<'PY'
import json, sys
rows, folder = int(sys.argv[1]), sys.argv[2]
with open(folder + "/Item.jsonl", "w") as out:
    for n in range(rows):
        out.write(json.dumps({
            "objectId": "%024x" % (0x5f0000000000000000000000 + n),
            "createdAt": "2020-01-01T00:00:00.000Z", "updatedAt": "2021-01-01T00:00:00.000Z",
            "ACL": {"*": {"read": True}},
            "title": "row %d of the generated export" % n, "n": n, "ratio": n / 7.0, "done": n % 2 == 0,
            "tags": ["a", "b%d" % (n % 10)], "meta": {"k": n % 100},
            "when": {"__type": "Date", "iso": "2022-02-02T02:02:02.000Z"},
            "where": {"__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4},
        }, separators=(",", ":")) + "\n")
PY
tar -czf "$work/export.tar.gz" -C "$work/export" Item.jsonl
rm -rf "$work/export"
echo "export: $(du -h "$work/export.tar.gz" | cut -f1) compressed"

echo "== importing"
started=$(date +%s.%N)
# shellcheck disable=SC2046
/usr/bin/time -v "$binary" import --from leancloud "$work/export.tar.gz" --data-dir "$work/data" $(store_arguments) \
  --batch-size "$batch" --quiet 2>"$work/time.txt" | tail -3
finished=$(date +%s.%N)
seconds=$(python3 -c "print(round($finished - $started, 1))")
echo "rows: $rows in $seconds s: $(python3 -c "print(round($rows / ($finished - $started)))") rows/s"
grep -E "Maximum resident set size" "$work/time.txt"

describe_machine
