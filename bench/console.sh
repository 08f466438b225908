#!/usr/bin/env bash
# The web console's reads of a big class: 1 000 000 objects written straight into the store (SQL), then the requests
# the data browser makes, each timed 20 times (median and worst): the first page, a keyset page deep in the class (the
# browser's paging by createdAt then objectId), a custom sort's page at skip 9 900, the count it asks for only on
# demand, and the plans the store follows for the two pages (explain=true).
#
#   bench/console.sh                 # SQLite
#   STORE=postgres bench/console.sh  # a throwaway PostgreSQL on loopback
#
# Settings (environment): ITEMS (1000000), STORE (sqlite), PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

items=${ITEMS:-1000000}
build_release
start_store
start_server

echo "== the class, then $items objects written with SQL"
python3 - "$url" "$app_id" "$master_key" <<'PY'
import json, sys, urllib.request
url, app_id, master = sys.argv[1:4]
request = urllib.request.Request(url + "/1.1/classes/Big", data=json.dumps({"n": 0, "title": "first"}).encode(), method="POST",
                                 headers={"X-LC-Id": app_id, "X-LC-Key": master + ",master", "Content-Type": "application/json"})
urllib.request.urlopen(request).read()
PY
started=$(date +%s)
if [ -n "$database_url" ]; then
  psql "$database_url" -q -c "INSERT INTO o_big SELECT lpad(to_hex(i), 24, '0'), 1700000000000 + i * 1000, 1700000000000 + i * 1000, NULL,
    jsonb_build_object('n', i, 'title', 'row ' || i) FROM generate_series(1, $items) AS i; ANALYZE o_big;"
else
  # WAL: the server's connections stay open beside the sqlite3 shell's write.
  sqlite3 "$work/data/cirrus.sqlite" "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $items)
    INSERT INTO o_big SELECT printf('%024x', i), 1700000000000 + i * 1000, 1700000000000 + i * 1000, NULL,
    json_object('n', i, 'title', 'row ' || i) FROM c; ANALYZE;"
fi
echo "writing took $(( $(date +%s) - started )) s"

python3 - "$url" "$app_id" "$master_key" "$items" <<'PY'
import json, statistics, sys, time, urllib.parse, urllib.request
url, app_id, master, items = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
headers = {"X-LC-Id": app_id, "X-LC-Key": master + ",master"}

def get(query):
    request = urllib.request.Request(url + "/1.1/classes/Big?" + urllib.parse.urlencode(query), headers=headers)
    started = time.perf_counter()
    body = json.loads(urllib.request.urlopen(request).read())
    return body, (time.perf_counter() - started) * 1000

middle = 1700000000000 + (items // 2) * 1000
iso = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(middle / 1000))
# As the console's pager sends it (Server/Dashboard/where.js): the bound on createdAt alone, then the exact keyset.
keyset = {"createdAt": {"$lte": {"__type": "Date", "iso": iso}},
          "$or": [{"createdAt": {"$lt": {"__type": "Date", "iso": iso}}},
                  {"createdAt": {"__type": "Date", "iso": iso}, "objectId": {"$lt": "f" * 24}}]}
scenarios = [
    ("first page (-createdAt)", {"limit": 100, "order": "-createdAt,-objectId"}),
    ("keyset page, middle of the class", {"limit": 100, "order": "-createdAt,-objectId", "where": json.dumps(keyset)}),
    ("custom sort (n), skip 9 900", {"limit": 100, "order": "n,objectId", "skip": 9900}),
    ("count (on demand)", {"limit": 0, "count": 1}),
]
print()
print("| request | median ms | worst ms | rows |")
print("|---|---|---|---|")
for name, query in scenarios:
    times, rows = [], 0
    for _ in range(20):
        body, ms = get(query)
        times.append(ms)
        rows = body.get("count", len(body.get("results", [])))
    print(f"| {name} | {statistics.median(times):.1f} | {max(times):.1f} | {rows} |")
for name, query in scenarios[:3]:
    body, _ = get(dict(query, explain="true"))
    print(f"\nplan of {name}:")
    for line in body["plan"]:
        print("   ", line)
PY

describe_machine
