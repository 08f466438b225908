"""Pushes from the LeanCloud Python SDK (`leancloud.push.send`, `Notification.fetch`) and ParsePy (`Push.alert`) against a
live server: one without APNs or FCM credentials (the requests are read as those SDKs send them, kept, and their
devices counted as failed), and one sending to the APNs and FCM stand-ins (the PushStandIns process: APNs over HTTP/2
with TLS checking the ES256 provider token, FCM checking the RS256 token exchange), which report what they received.
"""

import json
import os
import subprocess
import time
import uuid

import pytest
import requests

from conftest import APP_ID, MASTER_KEY, CirrusServer, cirrus_binary, leancloud_sdk_at, parse_sdk_at, postgres_schema, running_server


def master_headers():
    return {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"}


def finished(cirrus, objectId):
    for _ in range(300):
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


@pytest.fixture(scope="module")
def stand_ins(tmp_path_factory):
    """The PushStandIns process (built next to cirrus), with what it wrote: addresses, key files, the CA."""
    directory = tmp_path_factory.mktemp("stand-ins")
    binary = os.path.join(os.path.dirname(cirrus_binary()), "PushStandIns")
    process = subprocess.Popen([binary, str(directory)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    description = directory / "stand-ins.json"
    for _ in range(600):
        if description.exists() or process.poll() is not None:
            break
        time.sleep(0.05)
    assert description.exists(), "PushStandIns did not start"
    info = json.loads(description.read_text())
    info["directory"] = directory
    yield info
    process.terminate()
    assert process.wait(timeout=30) == 0


def push_arguments(stand_ins):
    """The flags that point a server's push clients at the stand-ins."""
    directory = stand_ins["directory"]
    return (
        "--apns-key-file", str(directory / "apns-key.p8"), "--apns-key-id", stand_ins["keyId"],
        "--apns-team-id", stand_ins["teamId"], "--apns-topic", stand_ins["topic"], "--apns-url", stand_ins["apnsURL"],
        "--fcm-service-account", str(directory / "fcm-service-account.json"), "--fcm-url", stand_ins["fcmURL"],
        "--push-ca-file", str(directory / "ca.pem"),
    )


@pytest.fixture(scope="module")
def pushing(tmp_path_factory, stand_ins):
    """A server of its own that sends through the stand-ins."""
    with running_server(tmp_path_factory, "pushing", push_arguments(stand_ins)) as server:
        yield server


def received(stand_ins):
    return requests.get(stand_ins["controlURL"] + "/deliveries", timeout=10).json()


def behave(stand_ins, apns=None, fcm=None):
    assert requests.put(stand_ins["controlURL"] + "/behaviour", json={"apns": apns or {}, "fcm": fcm or {}}, timeout=10).ok


def hex_token():
    return uuid.uuid4().hex + uuid.uuid4().hex


def test_the_leancloud_sdk_saves_devices_and_its_push_reaches_apns_and_fcm_and_drops_a_dead_token(pushing, stand_ins):
    channel = "c" + uuid.uuid4().hex[:8]
    ios, dead, android = hex_token(), hex_token(), "fcm-" + uuid.uuid4().hex
    behave(stand_ins, apns={"unregistered": [dead]})
    with leancloud_sdk_at(pushing.url) as leancloud:
        ids = {}
        for token, kind, badge in ((ios, "ios", 4), (dead, "ios", 0), (android, "android", None)):
            device = leancloud.Installation()
            device.set("deviceType", kind)
            device.set("installationId" if kind == "android" else "deviceToken", token)
            if kind == "android":
                device.set("deviceToken", token)
            if badge is not None:
                device.set("badge", badge)
            device.set("channels", [channel])
            device.save()
            ids[token] = device.id
        leancloud.use_master_key(True)
        try:
            notification = leancloud.push.send({"alert": "hello", "badge": "Increment", "sound": "ping.caf", "story": 7},
                                               channels=[channel], expiration_interval=3600)
            record = finished(pushing, notification.id)
        finally:
            leancloud.use_master_key(False)
    assert record["status"] == "done" and record["successes"] == 2 and record["errors"] == 0 and record["invalid"] == 1, record
    sent = received(stand_ins)
    (apns,) = [delivery for delivery in sent["apns"] if delivery["token"] == ios]
    assert apns["payload"]["aps"] == {"alert": "hello", "badge": 5, "sound": "ping.caf"} and apns["payload"]["story"] == 7
    assert apns["headers"]["apns-topic"] == stand_ins["topic"] and apns["headers"]["apns-push-type"] == "alert"
    (fcm,) = [message for message in sent["fcm"] if message["token"] == android]
    assert fcm["notification"] == {"body": "hello"} and fcm["data"]["story"] == "7"
    assert "Unregistered" in sent["apnsRefusals"]
    left = requests.get(pushing.url + "/1.1/installations", params={"where": json.dumps({"deviceToken": dead})},
                        headers=master_headers(), timeout=10).json()
    assert left["results"] == []
    kept = requests.get(pushing.url + "/1.1/installations/" + ids[ios], headers=master_headers(), timeout=10).json()
    assert kept["badge"] == 5


def test_parsepy_pushes_to_a_query_and_only_the_matching_devices_receive_it(pushing, stand_ins):
    behave(stand_ins)
    connection, _, _ = parse_sdk_at(pushing.url)
    from parse_rest.installation import Installation, Push
    marker = uuid.uuid4().hex[:10]
    wanted, other = hex_token(), hex_token()
    Installation(deviceType="ios", deviceToken=wanted, team=marker).save()
    Installation(deviceType="ios", deviceToken=other, team=marker + "-other").save()
    connection.register(APP_ID, "unused", master_key=MASTER_KEY)
    try:
        Push.alert({"alert": "to the team " + marker}, where={"team": marker})
    finally:
        parse_sdk_at(pushing.url)
    for _ in range(100):
        tokens = [delivery["token"] for delivery in received(stand_ins)["apns"] if delivery["payload"]["aps"].get("alert") == "to the team " + marker]
        if tokens:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    tokens = [delivery["token"] for delivery in received(stand_ins)["apns"] if delivery["payload"]["aps"].get("alert") == "to the team " + marker]
    assert tokens == [wanted]


def test_two_servers_sharing_a_postgresql_database_send_each_push_once_a_scheduled_one_included(tmp_path_factory, stand_ins):
    schema = postgres_schema()
    if schema is None:
        pytest.skip("servers share a database on PostgreSQL only")
    behave(stand_ins)
    root = tmp_path_factory.mktemp("shared-push")
    servers = [CirrusServer(cirrus_binary(), root / ("data%d" % i), root / ("cirrus%d.log" % i), push_arguments(stand_ins),
                            schema=schema, owns_schema=(i == 1)) for i in range(2)]
    try:
        for one in servers:
            one.wait_until_ready()
        channel = "shared" + uuid.uuid4().hex[:8]
        tokens = [hex_token() for _ in range(3)]
        for index, token in enumerate(tokens):
            made = requests.post(servers[index % 2].url + "/1.1/installations", headers=master_headers(),
                                 json={"deviceType": "ios", "deviceToken": token, "channels": [channel]}, timeout=10)
            assert made.status_code == 201, made.text
        # LeanCloud sends a push_time less than a minute away at once: this one is scheduled, 62 s ahead.
        due = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() + 62))
        scheduled = requests.post(servers[0].url + "/1.1/push", headers=master_headers(), timeout=10,
                                  json={"channels": [channel], "data": {"alert": channel + " scheduled"}, "push_time": due}).json()["objectId"]
        listed = requests.get(servers[1].url + "/1.1/scheduledPushMessages", headers=master_headers(), timeout=10).json()["results"]
        assert any(item["push_msg"]["data"] == {"alert": channel + " scheduled"} for item in listed)
        now = [requests.post(servers[i % 2].url + "/1.1/push", headers=master_headers(), timeout=10,
                             json={"channels": [channel], "data": {"alert": "%s now %d" % (channel, i)}}).json()["objectId"] for i in range(6)]
        for objectId in now:
            assert finished(servers[1], objectId)["successes"] == 3
        record = None
        for _ in range(120):
            record = requests.get(servers[1].url + "/1.1/notifications/" + scheduled, headers=master_headers(), timeout=10).json()
            if record["status"] not in ("scheduled", "sending"):
                break
            time.sleep(1)
        assert record["status"] == "done" and record["successes"] == 3, record
        alerts = [(delivery["payload"]["aps"]["alert"], delivery["token"]) for delivery in received(stand_ins)["apns"]
                  if delivery["payload"]["aps"].get("alert", "").startswith(channel)]
        expected = [(alert, token) for alert in [channel + " scheduled"] + ["%s now %d" % (channel, i) for i in range(6)] for token in tokens]
        assert sorted(alerts) == sorted(expected)
    finally:
        for one in servers:
            one.stop()


def test_imported_installations_get_pushes_their_devices_save_onto_them_and_stale_ones_expire(tmp_path, stand_ins):
    """A LeanCloud export's `_Installation` rows through `cirrus import`: an upper-case token is lower-cased, the device's
    next save (the SDK's POST) lands on the imported objectId, a push reaches it, and a row not saved for 90 days gets
    none and is removed."""
    behave(stand_ins)
    export = tmp_path / "export"
    export.mkdir()
    live, stale = hex_token(), hex_token()
    recent = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 86400))
    rows = [
        {"objectId": "5e0000000000000000000001", "deviceType": "ios", "deviceToken": live.upper(), "channels": ["imported"],
         "badge": 2, "createdAt": "2020-01-01T00:00:00.000Z", "updatedAt": recent},
        {"objectId": "5e0000000000000000000002", "deviceType": "ios", "deviceToken": stale, "channels": ["imported"],
         "createdAt": "2019-01-01T00:00:00.000Z", "updatedAt": "2019-01-02T00:00:00.000Z"},
    ]
    (export / "_Installation.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    data = tmp_path / "data"
    schema = postgres_schema()
    store_args = ["--data-dir", str(data)] + (["--database", schema[1]] if schema else [])
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIRRUS_")}
    done = subprocess.run([cirrus_binary(), "import", "--from", "leancloud", str(export), "--quiet", *store_args],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    server = CirrusServer(cirrus_binary(), data, tmp_path / "serve.log", push_arguments(stand_ins), schema=schema)
    try:
        server.wait_until_ready()
        with leancloud_sdk_at(server.url) as leancloud:
            device = leancloud.Installation()
            device.set("deviceType", "ios")
            device.set("deviceToken", live)
            device.save()
            assert device.id == "5e0000000000000000000001"
        listed = requests.get(server.url + "/1.1/installations", headers=master_headers(), timeout=10,
                              params={"where": json.dumps({"channels": "imported"})}).json()["results"]
        assert [row["objectId"] for row in listed if row["deviceToken"] == live] == ["5e0000000000000000000001"]
        sent = requests.post(server.url + "/1.1/push", headers=master_headers(), timeout=10,
                             json={"channels": ["imported"], "data": {"alert": "welcome back", "badge": "Increment"}}).json()
        record = finished(server, sent["objectId"])
        assert record["successes"] == 1 and record["errors"] == 0, record
        (delivery,) = [d for d in received(stand_ins)["apns"] if d["payload"]["aps"].get("alert") == "welcome back"]
        assert delivery["token"] == live and delivery["payload"]["aps"]["badge"] == 3
        for _ in range(600):
            gone = requests.get(server.url + "/1.1/installations", headers=master_headers(), timeout=10,
                                params={"where": json.dumps({"deviceToken": stale})}).json()["results"] == []
            if gone:
                break
            time.sleep(0.1)
        assert gone
    finally:
        code = server.stop()
    assert code == 0, server.output()


def test_the_leancloud_sdk_pushes_to_a_cql_audience_and_parsepy_reads_the_record_as_push_status(pushing, stand_ins):
    behave(stand_ins)
    marker = uuid.uuid4().hex[:10]
    wanted, other = hex_token(), hex_token()
    for token, level in ((wanted, 9), (other, 1)):
        made = requests.post(pushing.url + "/1.1/installations", headers=master_headers(), timeout=10,
                             json={"deviceType": "ios", "deviceToken": token, "team": marker, "level": level})
        assert made.status_code == 201, made.text
    cql = "select * from _Installation where team = '%s' and level > 5" % marker
    with leancloud_sdk_at(pushing.url) as leancloud:
        leancloud.use_master_key(True)
        try:
            notification = leancloud.push.send({"alert": "cql " + marker}, cql=cql)
        finally:
            leancloud.use_master_key(False)
    record = finished(pushing, notification.id)
    assert record["successes"] == 1 and record["cql"] == cql, record
    tokens = [d["token"] for d in received(stand_ins)["apns"] if d["payload"]["aps"].get("alert") == "cql " + marker]
    assert tokens == [wanted]
    connection, _, _ = parse_sdk_at(pushing.url)
    from parse_rest.datatypes import Object
    connection.register(APP_ID, "unused", master_key=MASTER_KEY)
    try:
        push_status = Object.factory("_PushStatus")
        push_status.ENDPOINT_ROOT = pushing.url + "/1/classes/_PushStatus"  # ParsePy drops the leading underscore
        status = push_status.Query.get(objectId=notification.id)
    finally:
        parse_sdk_at(pushing.url)
    assert status.status == "succeeded" and status.numSent == 1 and json.loads(status.payload) == {"alert": "cql " + marker}
    refused = requests.get(pushing.url + "/parse/classes/_PushStatus", timeout=10,
                           headers={"X-Parse-Application-Id": APP_ID, "X-Parse-REST-API-Key": "unused"})
    assert refused.status_code >= 400 and marker not in refused.text
