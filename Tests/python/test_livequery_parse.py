"""Parse's LiveQuery protocol (JSON over a WebSocket at /parse on LiveQuery's port) from a plain WebSocket client,
as the Parse SDKs speak it: connect, subscribe, events with `original`, unsubscribe, and Parse's error codes."""

import contextlib
import json
import uuid

import pytest
import requests
from websockets.sync.client import connect

from conftest import APP_ID, APP_KEY, MASTER_KEY

PARSE = {"X-Parse-Application-Id": APP_ID, "X-Parse-REST-API-Key": APP_KEY, "Content-Type": "application/json"}
PARSE_MASTER = {"X-Parse-Application-Id": APP_ID, "X-Parse-Master-Key": MASTER_KEY, "Content-Type": "application/json"}


def parse_url(cirrus):
    route = requests.get(cirrus.url + "/v1/route", params={"appId": APP_ID}, timeout=10).json()
    return route["server"].rsplit("/", 1)[0] + "/parse"


def receive(ws, timeout=10):
    return json.loads(ws.recv(timeout=timeout))


@contextlib.contextmanager
def connected(cirrus, **extra):
    """A socket that sent `connect` with this app's id and key and was answered `connected`."""
    with connect(parse_url(cirrus)) as ws:
        ws.send(json.dumps({"op": "connect", "applicationId": APP_ID, "javascriptKey": APP_KEY, **extra}))
        reply = receive(ws)
        assert reply["op"] == "connected" and reply["clientId"], reply
        yield ws


def test_connect_subscribe_and_the_events_of_create_update_leave_enter_and_delete(cirrus):
    cls = "Pl" + uuid.uuid4().hex[:10]
    with connected(cirrus, installationId="inst-1") as ws:
        ws.send(json.dumps({"op": "subscribe", "requestId": 1, "query": {"className": cls, "where": {"n": {"$gt": 0}}}}))
        subscribed = receive(ws)
        assert subscribed["op"] == "subscribed" and subscribed["requestId"] == 1 and subscribed["installationId"] == "inst-1"
        created = requests.post(cirrus.url + "/parse/classes/" + cls, json={"n": 1}, headers=PARSE, timeout=10).json()
        object_id = created["objectId"]
        for body in ({"n": 2}, {"n": -1}, {"n": 3}):
            assert requests.put(cirrus.url + "/parse/classes/%s/%s" % (cls, object_id), json=body, headers=PARSE, timeout=10).status_code == 200
        assert requests.delete(cirrus.url + "/parse/classes/%s/%s" % (cls, object_id), headers=PARSE, timeout=10).status_code == 200
        events = [receive(ws) for _ in range(5)]
        assert [(e["op"], e["object"]["n"], e.get("original", {}).get("n")) for e in events] == [
            ("create", 1, None), ("update", 2, 1), ("leave", -1, 2), ("enter", 3, -1), ("delete", 3, None),
        ]
        for event in events:
            assert event["requestId"] == 1 and event["clientId"] == subscribed["clientId"]
            assert event["object"]["className"] == cls and event["object"]["objectId"] == object_id
            assert event["object"]["__type"] == "Object" and "createdAt" in event["object"]


def test_an_object_the_subscriber_cannot_read_sends_nothing_and_unsubscribe_stops_events(cirrus):
    cls = "Pp" + uuid.uuid4().hex[:10]
    with connected(cirrus) as ws:
        ws.send(json.dumps({"op": "subscribe", "requestId": 7, "query": {"className": cls, "where": {}}}))
        assert receive(ws)["op"] == "subscribed"
        requests.post(cirrus.url + "/parse/classes/" + cls, json={"n": 1, "ACL": {"someone": {"read": True}}}, headers=PARSE_MASTER, timeout=10)
        public = requests.post(cirrus.url + "/parse/classes/" + cls, json={"n": 2}, headers=PARSE, timeout=10).json()
        event = receive(ws)
        assert event["op"] == "create" and event["object"]["objectId"] == public["objectId"]
        ws.send(json.dumps({"op": "unsubscribe", "requestId": 7}))
        assert receive(ws)["op"] == "unsubscribed"
        requests.post(cirrus.url + "/parse/classes/" + cls, json={"n": 3}, headers=PARSE, timeout=10)
        with pytest.raises(TimeoutError):
            ws.recv(timeout=1.5)


@pytest.mark.parametrize("message, code", [
    ({"op": "subscribe", "requestId": 1, "query": {"className": "A", "where": {}}}, 2),
    ({"op": "dance"}, 3),
    ({"op": "connect", "applicationId": "another-app"}, 4),
    ({"op": "connect", "applicationId": APP_ID, "clientKey": "wrong-key"}, 4),
])
def test_requests_out_of_turn_unknown_ops_and_wrong_keys_get_parses_error_codes(cirrus, message, code):
    with connect(parse_url(cirrus)) as ws:
        ws.send(json.dumps(message))
        reply = receive(ws)
        assert reply["op"] == "error" and reply["code"] == code and reply["error"] and reply["reconnect"] is False


def test_malformed_frames_and_refused_subscriptions_are_errors_and_the_socket_goes_on(cirrus):
    with connected(cirrus) as ws:
        ws.send("not json")
        assert receive(ws)["code"] == 1
        ws.send(json.dumps({"op": "subscribe", "requestId": 2, "query": {"className": "A", "where": {"x": {"$inQuery": {"className": "B", "where": {}}}}}}))
        refused = receive(ws)
        assert refused["op"] == "error" and refused["requestId"] == 2 and "inner queries" in refused["error"]
        ws.send(json.dumps({"op": "subscribe", "requestId": 3, "query": {"className": "A", "where": {}}, "sessionToken": "r:not-a-session"}))
        assert receive(ws)["code"] == 209
        ws.send(json.dumps({"op": "subscribe", "requestId": 4, "query": {"className": "A", "where": {}}}))
        assert receive(ws)["op"] == "subscribed"


def test_a_subscription_that_watches_fields_hears_only_of_writes_that_change_them(cirrus):
    cls = "Pw" + uuid.uuid4().hex[:10]
    object_id = requests.post(cirrus.url + "/parse/classes/" + cls, json={"status": "new", "note": "a"}, headers=PARSE, timeout=10).json()["objectId"]
    with connected(cirrus) as ws:
        ws.send(json.dumps({"op": "subscribe", "requestId": 1, "query": {"className": cls, "where": {}, "watch": ["status"]}}))
        assert receive(ws)["op"] == "subscribed"
        requests.put(cirrus.url + "/parse/classes/%s/%s" % (cls, object_id), json={"note": "b"}, headers=PARSE, timeout=10)
        requests.put(cirrus.url + "/parse/classes/%s/%s" % (cls, object_id), json={"status": "done"}, headers=PARSE, timeout=10)
        event = receive(ws)
        assert event["op"] == "update" and event["object"]["status"] == "done" and event["original"]["status"] == "new"
        # A watch that is not a list of distinct names is refused with Parse's code for an invalid query.
        ws.send(json.dumps({"op": "subscribe", "requestId": 2, "query": {"className": cls, "where": {}, "watch": ["a", "a"]}}))
        refused = receive(ws)
        assert refused["op"] == "error" and refused["requestId"] == 2 and refused["code"] == 102, refused
