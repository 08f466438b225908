#!/usr/bin/env python3
"""Sets up a running PocketBase for bench/peers.sh and seeds it with the objects bench/seed.py gives cirrus.

As the superuser (POST /api/collections/_superusers/auth-with-password):
- settings (PATCH /api/settings): the batch API on (500 requests per batch), the rate limiter off (it is off by
  default; made sure of), and, unless --keep-logs, the request log off (logs.maxDays 0: PocketBase writes every
  request to its auxiliary database by default; cirrus at --log-level warning logs none);
- the base collection `bench`: public list, view, create and update rules (the empty string; null would be
  superusers only), the fields of bench/seed.py's objects (title text, score / views / group numbers, done bool,
  tags and meta json), `created` and `updated` autodate fields (what cirrus's createdAt and updatedAt are; a
  collection created through the API has neither unless asked), and an index on `group`;
- COUNT records through POST /api/batch, 500 per request, with the values of bench/seed.py (seed_object), so object n
  has group n % GROUPS.
The records' ids are written to IDS_FILE, one per line.

Usage: seed_pocketbase.py URL EMAIL PASSWORD COUNT GROUPS IDS_FILE [--keep-logs]
"""

import json
import sys
import urllib.error
import urllib.request

from seed import BATCH, seed_object

COLLECTION = {
    "name": "bench",
    "type": "base",
    "listRule": "",
    "viewRule": "",
    "createRule": "",
    "updateRule": "",
    "fields": [
        {"name": "title", "type": "text"},
        {"name": "score", "type": "number"},
        {"name": "views", "type": "number"},
        {"name": "done", "type": "bool"},
        {"name": "tags", "type": "json"},
        {"name": "meta", "type": "json"},
        {"name": "group", "type": "number", "onlyInt": True},
        {"name": "created", "type": "autodate", "onCreate": True, "onUpdate": False},
        {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True},
    ],
    "indexes": ["CREATE INDEX idx_bench_group ON bench (`group`)"],
}


def call(url, method, path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = token
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        sys.exit("%s %s failed: %d %s" % (method, path, error.code, error.read().decode(errors="replace")))


def main():
    url, email, password, count, groups, ids_file = sys.argv[1:7]
    count, groups = int(count), int(groups)
    keep_logs = "--keep-logs" in sys.argv[7:]
    token = call(url, "POST", "/api/collections/_superusers/auth-with-password", {"identity": email, "password": password})["token"]
    settings = {"batch": {"enabled": True, "maxRequests": BATCH, "timeout": 60}, "rateLimits": {"enabled": False}}
    if not keep_logs:
        settings["logs"] = {"maxDays": 0}
    call(url, "PATCH", "/api/settings", settings, token)
    call(url, "POST", "/api/collections", COLLECTION, token)
    ids = []
    while len(ids) < count:
        size = min(BATCH, count - len(ids))
        requests = [
            {"method": "POST", "url": "/api/collections/bench/records", "body": seed_object(len(ids) + i, groups)}
            for i in range(size)
        ]
        for entry in call(url, "POST", "/api/batch", {"requests": requests}, token):
            if entry.get("status") != 200:
                sys.exit("seeding failed: %s" % json.dumps(entry))
            ids.append(entry["body"]["id"])
    with open(ids_file, "w") as out:
        out.write("\n".join(ids) + "\n")
    print("seeded %d records" % len(ids))


if __name__ == "__main__":
    main()
