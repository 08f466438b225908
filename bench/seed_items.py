#!/usr/bin/env python3
"""Seeds a running cirrus for the query benchmark, through /1.1/batch (500 objects per request, 2 at a time).

1 000 `Ref` objects, then COUNT `Item` objects: `category` (0–999, so each value has COUNT/1000 objects), `score`
(pseudo-random 0–999 999), `title`, and three pointers `a`, `b`, `c` to Refs.

Usage: seed_items.py URL APP_ID APP_KEY COUNT
"""

import random
import sys
from concurrent.futures import ThreadPoolExecutor

from batch_post import BATCH, post_batch as post


def pointer(object_id):
    return {"__type": "Pointer", "className": "Ref", "objectId": object_id}


def main():
    url, app_id, app_key, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    refs = []
    for start in range(0, 1000, BATCH):
        refs += post(url, app_id, app_key, [
            {"method": "POST", "path": "/1.1/classes/Ref", "body": {"name": "ref %d" % n, "rank": n}}
            for n in range(start, start + BATCH)
        ])
    generator = random.Random(7)

    def batch(start):
        return [
            {"method": "POST", "path": "/1.1/classes/Item", "body": {
                "category": n % 1000, "score": generator.randrange(1_000_000), "title": "item %d" % n,
                "a": pointer(refs[n % 1000]), "b": pointer(refs[(n * 7) % 1000]), "c": pointer(refs[(n * 13) % 1000]),
            }}
            for n in range(start, min(start + BATCH, count))
        ]

    done = 0
    with ThreadPoolExecutor(max_workers=2) as pool:
        for ids in pool.map(lambda start: post(url, app_id, app_key, batch(start)), range(0, count, BATCH)):
            done += len(ids)
            if done % 100_000 == 0:
                print("  %d items" % done, flush=True)
    print("seeded %d items and %d refs" % (done, len(refs)))


if __name__ == "__main__":
    main()
