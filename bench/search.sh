#!/usr/bin/env bash
# In-app search over 1 000 000 objects of mixed Chinese and English text (docs/SEARCH.md): the objects written
# straight into the store (SQL), then `cirrus search` turning search on and building the index from them (timed),
# the index's size beside the class table's, and searches timed 30 times each (p50, p99): a rare term (in 10
# objects), a common two-character Chinese word (in about a tenth), a one-character query, a Chinese phrase, an English
# word with its highlights, a prefix, and a boolean query, each a first page of 20 by relevance with `hits`.
#
#   bench/search.sh                 # SQLite
#   STORE=postgres bench/search.sh  # a throwaway PostgreSQL on loopback
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
request = urllib.request.Request(url + "/1.1/classes/Doc", data=json.dumps({"title": "first", "body": "第一篇", "n": 0}).encode(),
                                 method="POST", headers={"X-LC-Id": app_id, "X-LC-Key": master + ",master", "Content-Type": "application/json"})
urllib.request.urlopen(request).read()
PY
# Titles and bodies from 20 Chinese and 12 English words picked by the row number; `罕见词` in every 100 000th row.
zh="'设计','数据','存储','服务','天气','重要','响应','系统','用户','应用','时间','问题','工作','网络','公司','学习','生活','技术','市场','发展'"
en="'cloud','design','storage','service','mobile','search','index','query','server','client','engine','market'"
started=$(date +%s)
if [ -n "$database_url" ]; then
  psql "$database_url" -q -c "INSERT INTO o_doc SELECT lpad(to_hex(i), 24, '0'), 1700000000000 + i * 1000, 1700000000000 + i * 1000, NULL,
    jsonb_build_object('n', i,
      'title', (ARRAY[$zh])[1 + i % 20] || (ARRAY[$zh])[1 + (i / 20) % 20] || ' ' || (ARRAY[$en])[1 + (i / 7) % 12]
        || CASE WHEN i % 100000 = 0 THEN ' 罕见词' ELSE '' END,
      'body', (ARRAY[$zh])[1 + (i / 3) % 20] || '的' || (ARRAY[$zh])[1 + (i / 11) % 20] || (ARRAY[$zh])[1 + (i / 13) % 20] || '，'
        || (ARRAY[$en])[1 + (i / 5) % 12] || ' ' || (ARRAY[$en])[1 + (i / 17) % 12] || ' 第' || i || '号')
    FROM generate_series(1, $items) AS i; ANALYZE o_doc;"
else
  # A table of the words (the shell's SQL has no arrays); WAL: the server's connections stay open beside this write.
  sqlite3 "$work/data/cirrus.sqlite" "CREATE TEMP TABLE zh(k INTEGER PRIMARY KEY, w TEXT); CREATE TEMP TABLE en(k INTEGER PRIMARY KEY, w TEXT);
    INSERT INTO zh(w) VALUES ($(echo "$zh" | sed "s/,/),(/g")); INSERT INTO en(w) VALUES ($(echo "$en" | sed "s/,/),(/g"));
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $items)
    INSERT INTO o_doc SELECT printf('%024x', i), 1700000000000 + i * 1000, 1700000000000 + i * 1000, NULL, json_object('n', i,
      'title', (SELECT w FROM zh WHERE k = 1 + i % 20) || (SELECT w FROM zh WHERE k = 1 + (i / 20) % 20) || ' '
        || (SELECT w FROM en WHERE k = 1 + (i / 7) % 12) || CASE WHEN i % 100000 = 0 THEN ' 罕见词' ELSE '' END,
      'body', (SELECT w FROM zh WHERE k = 1 + (i / 3) % 20) || '的' || (SELECT w FROM zh WHERE k = 1 + (i / 11) % 20)
        || (SELECT w FROM zh WHERE k = 1 + (i / 13) % 20) || '，' || (SELECT w FROM en WHERE k = 1 + (i / 5) % 12) || ' '
        || (SELECT w FROM en WHERE k = 1 + (i / 17) % 12) || ' 第' || i || '号') FROM c; ANALYZE;"
fi
echo "writing took $(( $(date +%s) - started )) s"

echo "== cirrus search Doc title body (the index built from the objects, the server stopped as on SQLite it must be)"
kill -TERM "$server_pid"
wait "$server_pid" || true
server_pid=
started=$(date +%s)
# shellcheck disable=SC2046
"$binary" search --data-dir "$work/data" $(store_arguments) Doc title body
echo "building the index took $(( $(date +%s) - started )) s"
start_server

echo "== sizes"
if [ -n "$database_url" ]; then
  psql "$database_url" -At -c "SELECT 'class table (with its indexes): ' || pg_size_pretty(pg_total_relation_size('o_doc'))
    UNION ALL SELECT 'search index (with its GIN indexes): ' || pg_size_pretty(pg_total_relation_size('o_doc__search'))"
else
  sqlite3 "$work/data/cirrus.sqlite" "SELECT 'class table (with its indexes): ' || (SUM(pgsize) / 1048576) || ' MB' FROM dbstat
      WHERE name = 'o_doc' OR name LIKE 'o_doc_%' AND name NOT LIKE 'o_doc__search%';
    SELECT 'search index (FTS5 shadow tables and the id table): ' || (SUM(pgsize) / 1048576) || ' MB' FROM dbstat WHERE name LIKE 'o_doc__search%';"
fi

python3 - "$url" "$app_id" "$app_key" <<'PY'
import json, statistics, sys, time, urllib.parse, urllib.request
url, app_id, app_key = sys.argv[1:4]
headers = {"X-LC-Id": app_id, "X-LC-Key": app_key}

def search(q, **extra):
    query = {"q": q, "clazz": "Doc", "limit": 20, **extra}
    request = urllib.request.Request(url + "/1.1/search/select?" + urllib.parse.urlencode(query), headers=headers)
    started = time.perf_counter()
    body = json.loads(urllib.request.urlopen(request, timeout=120).read())
    return body, (time.perf_counter() - started) * 1000

scenarios = [
    ("rare term (罕见词)", "罕见词", {}),
    ("common Chinese word (设计)", "设计", {}),
    ("one character (设)", "设", {}),
    ("Chinese phrase (\"存储服务\")", "\"存储服务\"", {}),
    ("English word, highlighted (mobile)", "mobile", {"highlights": "title,body"}),
    ("prefix (serv*)", "serv*", {}),
    ("boolean (天气 AND cloud AND NOT 重要)", "天气 AND cloud AND NOT 重要", {}),
]
print("| search | hits | p50 ms | p99 ms |")
print("|---|---:|---:|---:|")
for name, q, extra in scenarios:
    body, _ = search(q, **extra)  # warm
    times = sorted(search(q, **extra)[1] for _ in range(30))
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print("| %s | %d | %.1f | %.1f |" % (name, body["hits"], statistics.median(times), p99))
PY
