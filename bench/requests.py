#!/usr/bin/env python3
"""Sends COUNT requests of one scenario one after the other on one keep-alive connection, and fails on any answer
but a success. Deterministic: the same arguments send the same requests.

Usage: requests.py URL APP_ID APP_KEY SCENARIO IDS_FILE COUNT [GROUPS]

Scenarios (the same as bench/peers.sh's and bench/run.sh's wrk scripts):
  get     GET /1.1/classes/Bench/<id>, a seeded id
  query   GET /1.1/classes/Bench?where={"group":N}&limit=20 (GROUPS: the seeded objects' groups, bench/seed.py)
  update  PUT /1.1/classes/Bench/<id> {"views":{"__op":"Increment","amount":1}}
  create  POST /1.1/classes/Bench, a small object
"""
import http.client, json, random, sys, urllib.parse

url, app_id, app_key, scenario, ids_file, count = sys.argv[1:7]
count = int(count)
groups = int(sys.argv[7]) if len(sys.argv) > 7 else 500
ids = open(ids_file).read().split()
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
headers = {"X-LC-Id": app_id, "X-LC-Key": app_key, "Content-Type": "application/json"}
random.seed(1)


def request(n):
    if scenario == "get":
        return "GET", "/1.1/classes/Bench/" + random.choice(ids), None
    if scenario == "query":
        where = urllib.parse.quote(json.dumps({"group": random.randrange(groups)}, separators=(",", ":")))
        return "GET", "/1.1/classes/Bench?where=%s&limit=20" % where, None
    if scenario == "update":
        return "PUT", "/1.1/classes/Bench/" + random.choice(ids), '{"views":{"__op":"Increment","amount":1}}'
    if scenario == "create":
        body = '{"title":"created %d","score":%d,"done":false,"tags":["bench","create"],"meta":{"n":%d}}' % (n, n % 1000, n)
        return "POST", "/1.1/classes/Bench", body
    sys.exit("unknown scenario " + scenario)


for n in range(count):
    method, path, body = request(n)
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    reply = response.read()
    if response.status not in (200, 201):
        sys.exit(f"{method} {path} answered {response.status}: {reply[:200]!r}")
    if scenario == "query" and len(json.loads(reply)["results"]) != 20:
        sys.exit(f"{path} did not find 20 objects")
