"""LiveQuery's realtime socket and REST endpoints from a plain WebSocket client: the RTM router, the protobuf and JSON
subprotocols, and what the server does with bad input (malformed frames, unknown commands, invalid subscriptions, a
socket that never logs in, a client that never reads)."""

import base64
import json
import os
import socket
import time
import uuid

import pytest
import requests
from websockets.sync.client import connect
from websockets.exceptions import ConnectionClosed

from conftest import APP_ID, APP_KEY, CirrusServer, cirrus_binary, running_server

APP = {"X-LC-Id": APP_ID, "X-LC-Key": APP_KEY, "Content-Type": "application/json"}


# --- A few GenericCommand fields, protobuf-encoded by hand (push_server.messages2; field numbers from the reference). ---

def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, value):
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    data = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(data)) + data


def command(cmd, i=None, app_id=None, installation_id=None, service=None):
    out = field(1, cmd)
    if app_id is not None:
        out += field(3, app_id)
    if i is not None:
        out += field(5, i)
    if installation_id is not None:
        out += field(6, installation_id)
    if service is not None:
        out += field(8, service)
    return out


def decode(data):
    """The top-level fields of a protobuf message: {number: [values]} (sub-messages as bytes)."""
    fields, offset = {}, 0
    while offset < len(data):
        key, offset = read_varint(data, offset)
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, offset = read_varint(data, offset)
        elif kind == 2:
            length, offset = read_varint(data, offset)
            value, offset = data[offset:offset + length], offset + length
        else:
            raise ValueError("unexpected wire type %d" % kind)
        fields.setdefault(number, []).append(value)
    return fields


def read_varint(data, offset):
    result = shift = 0
    while True:
        byte = data[offset]
        offset += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, offset


LOGIN, DATA, ECHO, LOGGEDIN, SESSION, ERROR = 8, 9, 14, 15, 0, 7


def socket_url(cirrus):
    route = requests.get(cirrus.url + "/v1/route", params={"appId": APP_ID, "secure": 1}, timeout=10).json()
    return route["server"]


def subscribe(cirrus, cls, where=None, client_id=None, **extra):
    body = {"query": {"className": cls, "where": where or {}}, **extra}
    if client_id:
        body["id"] = client_id
    return requests.post(cirrus.url + "/1.1/LiveQuery/subscribe", json=body, headers=APP, timeout=10)


def test_the_router_names_the_socket_on_this_server(cirrus):
    route = requests.get(cirrus.url + "/v1/route", params={"appId": APP_ID, "secure": 1}, timeout=10)
    assert route.status_code == 200
    body = route.json()
    host, _, rest = body["server"].partition("ws://")[2].partition(":")
    port, _, path = rest.partition("/")
    assert host == "127.0.0.1" and int(port) > 0 and path == "rtm"
    assert body["secondary"] == body["server"] and body["ttl"] > 0
    # The WebSocket's port answers anything but an upgrade with 426.
    assert requests.get("http://127.0.0.1:%s/rtm" % port, timeout=10).status_code == 426


def test_a_protobuf_socket_logs_in_echoes_and_receives_events_as_data_commands(cirrus):
    cls = "Sk" + uuid.uuid4().hex[:10]
    with connect(socket_url(cirrus), subprotocols=["lc.protobuf2.3"]) as ws:
        assert ws.subprotocol == "lc.protobuf2.3"
        ws.send(command(LOGIN, i=1, app_id=APP_ID, installation_id="client-1", service=1))
        reply = decode(ws.recv(timeout=10))
        assert reply[1] == [LOGGEDIN] and reply[5] == [1]
        ws.send(command(ECHO, i=2))
        assert decode(ws.recv(timeout=10))[1] == [ECHO]
        subscription = subscribe(cirrus, cls, client_id="client-1").json()
        assert subscription["id"] == "client-1" and subscription["query_id"]
        created = requests.post(cirrus.url + "/1.1/classes/" + cls, json={"n": 1}, headers=APP, timeout=10).json()
        event = decode(ws.recv(timeout=10))
        assert event[1] == [DATA] and event[8] == [1] and event[6] == [b"client-1"] and 5 not in event
        data = decode(event[101][0])
        message = json.loads(decode(data[2][0])[1][0])
        assert message["query_id"] == subscription["query_id"] and message["op"] == "create"
        assert message["object"]["objectId"] == created["objectId"] and message["object"]["className"] == cls


def test_an_unknown_command_is_answered_with_an_error_and_a_malformed_frame_closes_the_socket_with_4114(cirrus):
    with connect(socket_url(cirrus), subprotocols=["lc.protobuf2.3"]) as ws:
        ws.send(command(SESSION, i=7))
        reply = decode(ws.recv(timeout=10))
        assert reply[1] == [ERROR] and reply[5] == [7]
        error = decode(reply[103][0])
        assert error[1][0] > 0 and b"LiveQuery" in error[2][0]
        ws.send(b"\x0a\xff\xff\xff\xff\x0f")  # a length past the end
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4114
    # The server is unaffected.
    assert requests.get(cirrus.url + "/1.1/date", headers=APP, timeout=10).status_code == 200


def test_the_json_subprotocol_answers_heartbeats_and_logs_in(cirrus):
    with connect(socket_url(cirrus), subprotocols=["lc.json.3"]) as ws:
        assert ws.subprotocol == "lc.json.3"
        ws.send("{}")
        assert json.loads(ws.recv(timeout=10)) == {}
        ws.send(json.dumps({"cmd": "login", "appId": APP_ID, "installationId": "dotnet-1", "service": 1, "i": 1}))
        reply = json.loads(ws.recv(timeout=10))
        assert reply["cmd"] == "loggedin" and reply["i"] == 1 and "error" not in reply
        # Events in the flat JSON form, the message an object (what the .NET SDK reads).
        cls = "Js" + uuid.uuid4().hex[:10]
        subscription = subscribe(cirrus, cls, client_id="dotnet-1").json()
        created = requests.post(cirrus.url + "/1.1/classes/" + cls, json={"n": 1}, headers=APP, timeout=10).json()
        event = json.loads(ws.recv(timeout=10))
        assert event["cmd"] == "data" and event["service"] == 1 and event["installationId"] == "dotnet-1" and "i" not in event
        assert len(event["ids"]) == 1 and isinstance(event["msg"][0], dict)
        assert event["msg"][0]["query_id"] == subscription["query_id"] and event["msg"][0]["op"] == "create"
        assert event["msg"][0]["object"]["objectId"] == created["objectId"]
        ws.send("not json")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4114


def test_a_login_to_another_app_is_closed_with_4100(cirrus):
    with connect(socket_url(cirrus), subprotocols=["lc.protobuf2.3"]) as ws:
        ws.send(command(LOGIN, i=1, app_id="someone-else", installation_id="x", service=1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4100


@pytest.mark.parametrize("where, words", [
    ({"author": {"$inQuery": {"className": "_User", "where": {}}}}, "inner queries"),
    ({"$relatedTo": {"object": {"__type": "Pointer", "className": "A", "objectId": "x"}, "key": "r"}}, "inner queries"),
    ({"n": {"$unknown": 1}}, "$unknown"),
    ([1, 2], ""),
])
def test_subscriptions_with_invalid_or_unsupported_queries_are_refused_with_a_clear_error(cirrus, where, words):
    """LeanCloud's code 1 with a message that says what is wrong (LiveQuery follows no inner query, seed LQ-03)."""
    response = subscribe(cirrus, "Anything", where)
    assert response.status_code == 400
    assert response.json()["code"] == 1 and words in response.json()["error"]


def test_a_subscription_with_an_invalid_session_or_class_is_refused(cirrus):
    bad_session = subscribe(cirrus, "Anything", sessionToken="not-a-session")
    assert bad_session.status_code == 403 and bad_session.json()["code"] == 403
    bad_class = subscribe(cirrus, "no such class!")
    assert bad_class.status_code == 400 and bad_class.json()["code"] == 103
    bad_id = subscribe(cirrus, "Anything", client_id="x" * 300)
    assert bad_id.status_code == 400


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory):
    """A server whose sockets must log in within a second and may have 5 events waiting."""
    with running_server(tmp_path_factory, "strict", extra_args=("--livequery-login-timeout", "1", "--livequery-queue", "5")) as server:
        yield server


def test_a_socket_that_never_logs_in_is_closed_with_4108(strict_server):
    with connect(socket_url(strict_server), subprotocols=["lc.protobuf2.3"]) as ws:
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=15)
        assert closed.value.rcvd.code == 4108
        assert time.monotonic() - started < 10


@pytest.mark.sqlite_only("a socket's queue and its disconnection are the realtime listener's; the store only feeds the change log")
def test_a_client_that_never_reads_is_disconnected_and_writes_go_on(strict_server):
    """A raw socket logs in and subscribes, then never reads: once the server's queue for it (5 events) and the
    kernel's buffers are full, the server drops the connection; every write meanwhile succeeds."""
    cls = "Slow" + uuid.uuid4().hex[:8]
    url = socket_url(strict_server)
    host, port = url.split("//")[1].split("/")[0].split(":")
    raw = socket.create_connection((host, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(("GET /rtm HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: lc.protobuf2.3\r\n\r\n"
                 % (host, port, key)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    assert head.startswith(b"HTTP/1.1 101")
    login = command(LOGIN, i=1, app_id=APP_ID, installation_id="slow-1", service=1)
    mask = os.urandom(4)
    raw.sendall(bytes([0x82, 0x80 | len(login)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(login)))
    time.sleep(0.3)
    assert subscribe(strict_server, cls, client_id="slow-1").status_code == 200
    # Beyond what the kernel's buffers on loopback hold (a few MB), so that the server's queue fills.
    padding = "x" * 20000
    started = time.monotonic()
    for n in range(400):
        response = requests.post(strict_server.url + "/1.1/classes/" + cls, json={"n": n, "padding": padding}, headers=APP, timeout=10)
        assert response.status_code in (200, 201)
    assert time.monotonic() - started < 60
    # The server closed its side: reading what the kernel still holds ends in EOF (or a reset), not in a hang.
    raw.settimeout(10)
    ended = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            chunk = raw.recv(65536)
        except ConnectionResetError:
            ended = True
            break
        if not chunk:
            ended = True
            break
    raw.close()
    assert ended, strict_server.output()[-3000:]
    assert "queue is full" in strict_server.output()


def test_on_postgresql_the_subscribe_and_the_socket_may_reach_different_servers(cirrus, tmp_path_factory):
    """Behind a load balancer the REST subscribe and the socket may land on different instances: the socket logs in to
    the second server, the subscribe and the write go to the first, and the event arrives (the subscription is in the
    database; the second server loads it when told); after unsubscribing through the first, nothing arrives."""
    if not cirrus.schema:
        pytest.skip("needs the PostgreSQL run (scripts/test runs this suite on both stores)")
    root = tmp_path_factory.mktemp("second-socket")
    second = CirrusServer(cirrus_binary(), root / "data", root / "cirrus.log", schema=cirrus.schema, owns_schema=False)
    cls = "Lb" + uuid.uuid4().hex[:10]
    try:
        second.wait_until_ready()
        with connect(socket_url(second), subprotocols=["lc.json.3"]) as ws:
            ws.send(json.dumps({"cmd": "login", "appId": APP_ID, "installationId": "balanced-1", "service": 1, "i": 1}))
            assert json.loads(ws.recv(timeout=10))["cmd"] == "loggedin"
            subscription = subscribe(cirrus, cls, {"n": {"$gt": 0}}, client_id="balanced-1").json()
            created = None
            deadline = time.monotonic() + 10
            event = None
            # The second server reloads the client's subscriptions when the first announces them: write until it has.
            while event is None and time.monotonic() < deadline:
                created = requests.post(cirrus.url + "/1.1/classes/" + cls, json={"n": 1}, headers=APP, timeout=10).json()
                try:
                    event = json.loads(ws.recv(timeout=1))
                except TimeoutError:
                    pass
            assert event is not None, "no event within 10 s"
            assert event["cmd"] == "data" and event["msg"][0]["query_id"] == subscription["query_id"]
            assert event["msg"][0]["op"] == "create" and event["msg"][0]["object"]["className"] == cls
            unsubscribed = requests.post(cirrus.url + "/1.1/LiveQuery/unsubscribe", headers=APP, timeout=10,
                                         json={"id": "balanced-1", "query_id": subscription["query_id"]})
            assert unsubscribed.status_code == 200
            time.sleep(1)
            while True:  # events of the writes before the unsubscribe may still be queued
                try:
                    ws.recv(timeout=0.5)
                except TimeoutError:
                    break
            requests.post(cirrus.url + "/1.1/classes/" + cls, json={"n": 2}, headers=APP, timeout=10)
            with pytest.raises(TimeoutError):
                ws.recv(timeout=2)
    finally:
        assert second.stop() == 0, second.output()


def test_subscribe_ping_and_unsubscribe_answer_404_for_a_subscription_of_another_client(cirrus):
    cls = "Pg" + uuid.uuid4().hex[:10]
    subscription = subscribe(cirrus, cls, client_id="owner-1").json()
    for path in ("/1.1/LiveQuery/subscribe/ping", "/1.1/LiveQuery/unsubscribe"):
        other = requests.post(cirrus.url + path, json={"id": "someone-else", "query_id": subscription["query_id"]}, headers=APP, timeout=10)
        assert other.status_code == 404, other.text
    ping = requests.post(cirrus.url + "/1.1/LiveQuery/subscribe/ping", json={"id": "owner-1", "query_id": subscription["query_id"]}, headers=APP, timeout=10)
    assert ping.status_code == 200 and ping.json() == {}


@pytest.fixture(scope="module")
def server_without_livequery(tmp_path_factory):
    with running_server(tmp_path_factory, "no-livequery", extra_args=("--livequery", "false")) as server:
        yield server


def test_with_livequery_off_neither_the_router_nor_the_subscribe_answer(server_without_livequery):
    assert requests.get(server_without_livequery.url + "/v1/route", params={"appId": APP_ID}, timeout=10).status_code == 404
    refused = subscribe(server_without_livequery, "Anything")
    assert refused.status_code == 404, refused.text
    assert "LiveQuery's WebSocket listens" not in server_without_livequery.output()


def recv_json(ws):
    return json.loads(ws.recv(timeout=10))


def test_a_client_that_resumes_after_a_drop_gets_the_events_it_missed_once(cirrus):
    """Cirrus's extension, which the Swift SDK uses: every event carries its change-log `sequence`, every `loggedin`
    and `echo` a `position`; a login with `resumeAfter` gets the client's events after it, then `loggedin` with
    `resumed`, then live events, none twice."""
    cls = "Rs" + uuid.uuid4().hex[:10]
    client = "resume-" + uuid.uuid4().hex[:8]
    url = socket_url(cirrus)
    create = lambda n: requests.post(cirrus.url + "/1.1/classes/" + cls, json={"n": n, "room": "a"}, headers=APP, timeout=10).json()
    with connect(url, subprotocols=["lc.json.3"]) as ws:
        ws.send(json.dumps({"cmd": "login", "appId": APP_ID, "installationId": client, "service": 1, "i": 1}))
        loggedin = recv_json(ws)
        assert loggedin["cmd"] == "loggedin" and isinstance(loggedin["position"], int) and "resumed" not in loggedin
        assert subscribe(cirrus, cls, where={"room": "a"}, client_id=client).status_code == 200
        create(1)
        first = recv_json(ws)["msg"][0]
        assert first["op"] == "create" and first["sequence"] > loggedin["position"]
        ws.send(json.dumps({"cmd": "echo", "i": 2}))
        echo = recv_json(ws)
        assert echo["cmd"] == "echo" and echo["i"] == 2 and echo["position"] >= first["sequence"]
    # Missed while no socket was open: a create, an update that leaves, one that enters, a write elsewhere.
    second = create(2)
    requests.put(cirrus.url + "/1.1/classes/%s/%s" % (cls, second["objectId"]), json={"room": "b"}, headers=APP, timeout=10)
    requests.put(cirrus.url + "/1.1/classes/%s/%s" % (cls, second["objectId"]), json={"room": "a"}, headers=APP, timeout=10)
    requests.post(cirrus.url + "/1.1/classes/Other" + cls, json={"n": 0}, headers=APP, timeout=10)
    # A private object in the room is not replayed (the same read gate as live events).
    requests.post(cirrus.url + "/1.1/classes/" + cls, json={"n": 9, "room": "a", "ACL": {}}, headers=APP, timeout=10)
    with connect(url, subprotocols=["lc.json.3"]) as ws:
        ws.send(json.dumps({"cmd": "login", "appId": APP_ID, "installationId": client, "service": 1, "i": 3,
                            "resumeAfter": first["sequence"]}))
        replayed = []
        while True:
            reply = recv_json(ws)
            if reply["cmd"] != "data":
                break
            replayed.append(reply["msg"][0])
        assert reply["cmd"] == "loggedin" and reply["i"] == 3 and reply["resumed"] is True
        assert [m["op"] for m in replayed] == ["create", "leave", "enter"]
        assert all(m["object"]["objectId"] == second["objectId"] for m in replayed)
        sequences = [m["sequence"] for m in replayed]
        assert sequences == sorted(sequences) and sequences[0] > first["sequence"] and reply["position"] >= sequences[-1]
        third = create(3)
        live = recv_json(ws)["msg"][0]
        assert live["op"] == "create" and live["object"]["objectId"] == third["objectId"] and live["sequence"] > reply["position"]
    # A position the server cannot answer for (ahead of its log: another database's) replays nothing and says so.
    with connect(url, subprotocols=["lc.json.3"]) as ws:
        ws.send(json.dumps({"cmd": "login", "appId": APP_ID, "installationId": client, "service": 1, "i": 4,
                            "resumeAfter": live["sequence"] + 10 ** 15}))
        reply = recv_json(ws)
        assert reply["cmd"] == "loggedin" and reply["resumed"] is False


def test_a_server_shutting_down_sends_goaway_and_closes_with_1001(tmp_path_factory):
    import threading
    with running_server(tmp_path_factory, "goaway") as server:
        with connect(socket_url(server), subprotocols=["lc.json.3"]) as ws:
            ws.send(json.dumps({"cmd": "login", "appId": APP_ID, "installationId": "leaving-1", "service": 1, "i": 1}))
            assert recv_json(ws)["cmd"] == "loggedin"
            stopping = threading.Thread(target=server.process.terminate)
            stopping.start()
            assert recv_json(ws)["cmd"] == "goaway"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd.code == 1001
            stopping.join()
