"""One /1.1/batch request for the seeding scripts: posts `requests` with the key given (an app key, or
`<master>,master`), exits on any failed item, and answers the created objectIds in order."""

import json
import sys
import urllib.request

BATCH = 500


def post_batch(url, app_id, key, requests):
    request = urllib.request.Request(
        url + "/1.1/batch",
        data=json.dumps({"requests": requests}).encode(),
        headers={"Content-Type": "application/json", "X-LC-Id": app_id, "X-LC-Key": key},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=300) as response:
        replies = json.load(response)
    failed = [r for r in replies if "success" not in r]
    if failed:
        sys.exit("seeding failed: %s" % json.dumps(failed[0]))
    return [r["success"].get("objectId") for r in replies]
