#!/usr/bin/env python3
"""Seeds a running cirrus with N objects of class Bench through /1.1/batch and writes their ids, one per line.

Usage: seed.py URL APP_ID APP_KEY COUNT IDS_FILE [GROUPS]

With GROUPS, object n also gets the integer field `group` = n % GROUPS (bench/peers.sh queries by it).
"""

import json
import sys
import urllib.request

BATCH = 500


def post(url, app_id, app_key, body):
    request = urllib.request.Request(
        url + "/1.1/batch",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-LC-Id": app_id, "X-LC-Key": app_key},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


def seed_object(n, groups):
    """Object n of the seeded set; bench/seed_pocketbase.py writes the same values."""
    fields = {"title": "seed %d" % n, "score": n % 1000, "views": 0, "tags": ["bench", "seed"], "meta": {"n": n}}
    if groups:
        fields["group"] = n % groups
    return fields


def main():
    url, app_id, app_key, count, ids_file = sys.argv[1:6]
    count = int(count)
    groups = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    ids = []
    while len(ids) < count:
        size = min(BATCH, count - len(ids))
        requests = [
            {
                "method": "POST",
                "path": "/1.1/classes/Bench",
                "body": seed_object(len(ids) + i, groups),
            }
            for i in range(size)
        ]
        for entry in post(url, app_id, app_key, {"requests": requests}):
            if "success" not in entry:
                sys.exit("seeding failed: %s" % json.dumps(entry))
            ids.append(entry["success"]["objectId"])
    with open(ids_file, "w") as out:
        out.write("\n".join(ids) + "\n")
    print("seeded %d objects" % len(ids))


if __name__ == "__main__":
    main()
