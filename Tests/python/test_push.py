"""Pushes from the LeanCloud Python SDK (`leancloud.push.send`, `Notification.fetch`) and ParsePy (`Push.alert`) against a
live server without APNs or FCM credentials: the requests are read as those SDKs send them, kept, and their devices
counted as failed (no provider); delivery itself is tested against the APNs and FCM stand-ins (PushTests in Swift).
"""

import time
import uuid

import requests

from conftest import APP_ID, MASTER_KEY, leancloud_sdk_at, parse_sdk_at


def master_headers():
    return {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"}


def finished(cirrus, objectId):
    for _ in range(100):
        record = requests.get(cirrus.url + "/1.1/notifications/" + objectId, headers=master_headers(), timeout=10).json()
        if record.get("status") not in ("scheduled", "sending"):
            return record
        time.sleep(0.1)
    raise AssertionError("the push did not finish")


def test_the_leancloud_sdk_sends_a_push_to_a_channel_and_fetches_its_notification(cirrus):
    channel = "c" + uuid.uuid4().hex[:8]
    token = uuid.uuid4().hex + uuid.uuid4().hex
    requests.post(cirrus.url + "/1.1/installations", headers=master_headers(),
                  json={"deviceType": "ios", "deviceToken": token, "channels": [channel]}, timeout=10)
    with leancloud_sdk_at(cirrus.url) as leancloud:
        leancloud.use_master_key(True)
        try:
            notification = leancloud.push.send({"alert": "hello", "badge": "Increment"}, channels=[channel], expiration_interval=3600, prod="dev")
            record = finished(cirrus, notification.id)
            notification.fetch()
        finally:
            leancloud.use_master_key(False)
    assert record["status"] == "done" and record["errors"] == 1 and record["successes"] == 0
    assert record["data"] == {"alert": "hello", "badge": "Increment"} and record["prod"] == "dev"
    assert record["where"] == {"channels": {"$in": [channel]}}
    assert notification.get("status") == "done"


def test_a_client_without_the_master_key_may_not_push_by_default(cirrus):
    with leancloud_sdk_at(cirrus.url) as leancloud:
        try:
            leancloud.push.send({"alert": "nope"}, channels=["x"])
        except leancloud.LeanCloudError as error:
            assert error.code == 1
        else:
            raise AssertionError("a client push was accepted")


def test_parsepy_pushes_with_the_master_key_and_parse_refuses_where_with_channels(cirrus):
    connection, _, _ = parse_sdk_at(cirrus.url)
    from parse_rest.installation import Push
    connection.register(APP_ID, "unused", master_key=MASTER_KEY)
    try:
        Push.alert({"alert": "parse hello"}, channels=["p"])
    finally:
        parse_sdk_at(cirrus.url)
    records = requests.get(cirrus.url + "/1.1/notifications", headers=master_headers(), timeout=10).json()["results"]
    assert any(record["data"] == {"alert": "parse hello"} and record["where"] == {"channels": {"$in": ["p"]}} for record in records)
    response = requests.post(cirrus.url + "/parse/push", headers={"X-Parse-Application-Id": APP_ID, "X-Parse-Master-Key": MASTER_KEY},
                             json={"where": {"deviceType": "ios"}, "channels": ["p"], "data": {"alert": "x"}}, timeout=10)
    assert response.status_code == 400 and response.json()["code"] == 115
    accepted = requests.post(cirrus.url + "/parse/push", headers={"X-Parse-Application-Id": APP_ID, "X-Parse-Master-Key": MASTER_KEY},
                             json={"channels": ["p"], "data": {"alert": "x"}}, timeout=10)
    assert accepted.json() == {"result": True} and accepted.headers["X-Parse-Push-Status-Id"]
