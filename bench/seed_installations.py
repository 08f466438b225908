#!/usr/bin/env python3
"""Seeds a running cirrus for the push benchmark: COUNT iOS installations on the channel `bench`, through /1.1/batch
(500 per request, 2 at a time, with the master key). Device tokens are unique 64-hex strings, the zero-padded counter.

Prints one JSON line: {"count", "seconds", "per_second"}.

Usage: seed_installations.py URL APP_ID MASTER_KEY COUNT
"""

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from batch_post import BATCH, post_batch


def post(url, app_id, master_key, requests):
    return len(post_batch(url, app_id, master_key + ",master", requests))


def batch(start, count):
    return [
        {"method": "POST", "path": "/1.1/classes/_Installation",
         "body": {"deviceType": "ios", "deviceToken": format(n, "064x"), "channels": ["bench"]}}
        for n in range(start, min(start + BATCH, count))
    ]


def main():
    url, app_id, master_key, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    started = time.monotonic()
    done = 0
    with ThreadPoolExecutor(max_workers=2) as pool:
        for stored in pool.map(lambda start: post(url, app_id, master_key, batch(start, count)), range(0, count, BATCH)):
            done += stored
            if done % 100_000 == 0:
                print("  %d installations" % done, file=sys.stderr, flush=True)
    seconds = time.monotonic() - started
    if done != count:
        sys.exit("seeded %d installations, not %d" % (done, count))
    print(json.dumps({"count": done, "seconds": round(seconds, 2), "per_second": round(done / seconds)}))


if __name__ == "__main__":
    main()
