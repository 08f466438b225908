"""Bmob's realtime data (seed 004 RT-1–4) as Bmob's SDKs speak it: the Socket.IO 0.9 handshake on LiveQuery's port,
then `type:id:endpoint:data` frames on /socket.io/1/websocket/<sid>: table and row subscriptions, `server_pub`
events with the row in Bmob's REST shape, unsubscribing, and only what a client without a session may read."""

import contextlib
import json
import time
import uuid

import pytest
import requests
from websockets.sync.client import connect

from conftest import APP_ID, APP_KEY, MASTER_KEY

BMOB = {"X-Bmob-Application-Id": APP_ID, "X-Bmob-REST-API-Key": APP_KEY, "Content-Type": "application/json"}
BMOB_MASTER = {"X-Bmob-Application-Id": APP_ID, "X-Bmob-REST-API-Key": APP_KEY, "X-Bmob-Master-Key": MASTER_KEY,
               "Content-Type": "application/json"}


def realtime_base(cirrus):
    route = requests.get(cirrus.url + "/v1/route", params={"appId": APP_ID}, timeout=10).json()
    return route["server"].split("//", 1)[1].split("/", 1)[0]


@contextlib.contextmanager
def bmob_socket(cirrus):
    """A socket past the handshake and the server's greeting (`1::`, then `client_send_data`)."""
    host = realtime_base(cirrus)
    handshake = requests.get("http://%s/socket.io/1/" % host, params={"t": int(time.time() * 1000)}, timeout=10)
    assert handshake.status_code == 200 and handshake.headers["Content-Type"].startswith("text/plain")
    sid, heartbeat, close, transports = handshake.text.split(":")
    assert sid and int(heartbeat) > 0 and int(close) > 0 and "websocket" in transports.split(",")
    with connect("ws://%s/socket.io/1/websocket/%s" % (host, sid)) as ws:
        assert ws.recv(timeout=10) == "1::"
        greeting = ws.recv(timeout=10)
        assert greeting.startswith("5:::") and json.loads(greeting[4:])["name"] == "client_send_data"
        yield ws


def send_event(ws, name, action, table, object_id="", app=APP_ID, ack=False):
    argument = json.dumps({"appKey": app, "tableName": table, "objectId": object_id, "action": action})
    ws.send(("5:1+::" if ack else "5:::") + json.dumps({"name": name, "args": [argument]}))


def publications(ws, count, timeout=10):
    """The next `count` server_pub payloads (heartbeats skipped)."""
    found = []
    deadline = time.monotonic() + timeout
    while len(found) < count:
        frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        if frame.startswith("5:::"):
            event = json.loads(frame[4:])
            assert event["name"] == "server_pub" and isinstance(event["args"][0], str)
            found.append(json.loads(event["args"][0]))
    return found


def test_a_table_subscription_receives_creates_and_updates_of_its_rows_in_bmobs_shape(cirrus):
    table = "Bm" + uuid.uuid4().hex[:10]
    with bmob_socket(cirrus) as ws:
        send_event(ws, "client_sub", "updateTable", table)
        time.sleep(0.3)  # Bmob answers a subscription with nothing
        created = requests.post(cirrus.url + "/1/classes/" + table, json={"title": "a", "n": 1}, headers=BMOB, timeout=10).json()
        requests.put(cirrus.url + "/1/classes/%s/%s" % (table, created["objectId"]), json={"n": 2}, headers=BMOB, timeout=10)
        first, second = publications(ws, 2)
        for message in (first, second):
            assert message["appKey"] == APP_ID and message["tableName"] == table
            assert message["objectId"] == "" and message["action"] == "updateTable"
            assert message["data"]["objectId"] == created["objectId"] and "ACL" not in message["data"]
        assert first["data"]["n"] == 1 and second["data"]["n"] == 2
        # Bmob's dates: "YYYY-MM-DD HH:MM:SS".
        assert len(first["data"]["createdAt"]) == 19 and first["data"]["createdAt"][10] == " "


def test_row_subscriptions_receive_their_rows_updates_and_delete_and_unsubscribing_stops_them(cirrus):
    table = "Br" + uuid.uuid4().hex[:10]
    row = requests.post(cirrus.url + "/1/classes/" + table, json={"n": 1}, headers=BMOB, timeout=10).json()["objectId"]
    other = requests.post(cirrus.url + "/1/classes/" + table, json={"n": 1}, headers=BMOB, timeout=10).json()["objectId"]
    with bmob_socket(cirrus) as ws:
        send_event(ws, "client_sub", "updateRow", table, row, ack=True)  # Android asks for an ack: none is sent
        send_event(ws, "client_sub", "deleteRow", table, row)
        time.sleep(0.3)
        requests.put(cirrus.url + "/1/classes/%s/%s" % (table, other), json={"n": 5}, headers=BMOB, timeout=10)
        requests.put(cirrus.url + "/1/classes/%s/%s" % (table, row), json={"n": 2}, headers=BMOB, timeout=10)
        updated, = publications(ws, 1)
        assert (updated["action"], updated["objectId"], updated["data"]["n"]) == ("updateRow", row, 2)
        requests.delete(cirrus.url + "/1/classes/%s/%s" % (table, row), headers=BMOB, timeout=10)
        deleted, = publications(ws, 1)
        assert (deleted["action"], deleted["objectId"], deleted["data"]["objectId"]) == ("deleteRow", row, row)
        # An old JavaScript SDK sent unsubscribes as client_sub: the action decides.
        send_event(ws, "client_sub", "unsub_updateRow", table, other)
        send_event(ws, "client_sub", "updateRow", table, other)
        time.sleep(0.3)
        send_event(ws, "client_unsub", "unsub_updateRow", table, other)
        time.sleep(0.3)
        requests.put(cirrus.url + "/1/classes/%s/%s" % (table, other), json={"n": 6}, headers=BMOB, timeout=10)
        with pytest.raises(TimeoutError):
            publications(ws, 1, timeout=1.5)


def test_a_socket_sees_only_publicly_readable_rows_and_ignores_other_apps_and_garbage(cirrus):
    table = "Bp" + uuid.uuid4().hex[:10]
    with bmob_socket(cirrus) as ws:
        send_event(ws, "client_sub", "updateTable", table, app="another-app")
        ws.send("5:::not json")
        ws.send("3:::hello")
        ws.send("2::")
        send_event(ws, "client_sub", "updateTable", table)
        time.sleep(0.3)
        private = requests.post(cirrus.url + "/1/classes/" + table, json={"n": 1, "ACL": {"someone": {"read": True}}},
                                headers=BMOB_MASTER, timeout=10).json()
        public = requests.post(cirrus.url + "/1/classes/" + table, json={"n": 2}, headers=BMOB, timeout=10).json()
        message, = publications(ws, 1)
        assert message["data"]["objectId"] == public["objectId"]
        assert private["objectId"] not in json.dumps(message)
        with pytest.raises(TimeoutError):
            publications(ws, 1, timeout=1)


def test_the_realtime_port_answers_other_requests_with_426(cirrus):
    host = realtime_base(cirrus)
    assert requests.get("http://%s/anything" % host, timeout=10).status_code == 426


def test_a_delete_table_subscription_hears_of_the_class_being_deleted(cirrus):
    table = "Bd" + uuid.uuid4().hex[:10]
    row = requests.post(cirrus.url + "/1/classes/" + table, json={"n": 1}, headers=BMOB, timeout=10).json()["objectId"]
    with bmob_socket(cirrus) as ws:
        send_event(ws, "client_sub", "deleteTable", table)
        time.sleep(0.3)
        # Deleting a row is not deleting the table.
        assert requests.delete(cirrus.url + "/1/classes/%s/%s" % (table, row), headers=BMOB, timeout=10).status_code == 200
        with pytest.raises(TimeoutError):
            publications(ws, 1, timeout=1)
        master = {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master"}
        deleted_class = requests.delete(cirrus.url + "/1.1/schemas/" + table, headers=master, timeout=10)
        assert deleted_class.status_code == 200, deleted_class.text
        message, = publications(ws, 1)
        assert (message["action"], message["tableName"], message["objectId"], message["data"]) == ("deleteTable", table, "", {})
