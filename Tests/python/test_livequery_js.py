"""LiveQuery through LeanCloud's own JavaScript SDK (4.15.3, unmodified) in headless Chromium against a live
`cirrus serve`: the SDK asks `/v1/route` where the realtime socket is, opens it with the `lc.protobuf2.3` subprotocol,
logs in, subscribes over REST, and receives the events of writes made through REST and the Python SDK.
"""

import time
import uuid

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY, CirrusServer, cirrus_binary, open_user_find, running_server

APP = {"X-LC-Id": APP_ID, "X-LC-Key": APP_KEY, "Content-Type": "application/json"}
MASTER = {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"}

# Subscribes `query` (built in JavaScript from `args`) and records every event on window.__events.
SUBSCRIBE = """
window.__events = window.__events || [];
var query = new AV.Query(args.cls);
if (args.greaterThan !== undefined) query.greaterThan('n', args.greaterThan);
var live = await query.subscribe();
['create', 'update', 'enter', 'leave', 'delete'].forEach(function (op) {
  live.on(op, function (object, updatedKeys) {
    window.__events.push({op: op, id: object.id, className: object.className, n: object.get('n'),
                         secret: object.get('secret') === undefined ? null : object.get('secret'),
                         keys: updatedKeys === undefined ? null : updatedKeys});
  });
});
window.__live = window.__live || {};
window.__live[args.name || 'main'] = live;
return 'subscribed';
"""


@pytest.fixture
def js_class():
    return "Lq" + uuid.uuid4().hex[:12]


def rest(cirrus, method, path, body=None, headers=APP):
    response = requests.request(method, cirrus.url + "/1.1" + path, json=body, headers=headers, timeout=30)
    assert response.status_code in (200, 201), response.text
    return response.json()


def events(js_sdk, count, timeout=15):
    """The page's events once there are `count` of them (fails after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        seen = js_sdk.run("return window.__events || [];")
        if len(seen) >= count:
            return seen
        time.sleep(0.1)
    raise AssertionError("expected %d events within %ss, got %s" % (count, timeout, seen))


def test_create_update_enter_leave_and_delete_reach_the_js_sdk_with_updated_keys(js_sdk, cirrus, leancloud, js_class):
    """The five events of seed 001 (LQ-04–08) for a query `n > 0`: a create that matches, an update within the
    results (with the keys it touched), an update that takes the object out (leave), one that brings it back (enter),
    and the delete; an object that never matches sends nothing. Writes go through REST and the Python SDK."""
    assert js_sdk.run(SUBSCRIBE, cls=js_class, greaterThan=0) == "subscribed"
    created = rest(cirrus, "POST", "/classes/" + js_class, {"n": 1, "title": "a"})
    object_id = created["objectId"]
    rest(cirrus, "POST", "/classes/" + js_class, {"n": -5})  # never matches: no event
    rest(cirrus, "PUT", "/classes/%s/%s" % (js_class, object_id), {"n": {"__op": "Increment", "amount": 1}})
    todo = leancloud.Object.create(js_class)
    todo.id = object_id
    todo.set("n", -1)
    todo.save()
    rest(cirrus, "PUT", "/classes/%s/%s" % (js_class, object_id), {"n": 7, "title": "b"})
    rest(cirrus, "DELETE", "/classes/%s/%s" % (js_class, object_id))
    seen = events(js_sdk, 5)
    assert [(e["op"], e["id"], e["n"]) for e in seen] == [
        ("create", object_id, 1), ("update", object_id, 2), ("leave", object_id, -1), ("enter", object_id, 7),
        ("delete", object_id, 7),
    ]
    assert all(e["className"] == js_class for e in seen)
    assert seen[1]["keys"] == ["n"] and seen[2]["keys"] == ["n"] and sorted(seen[3]["keys"]) == ["n", "title"]
    assert seen[0]["keys"] is None and seen[4]["keys"] is None
    time.sleep(0.5)
    assert len(js_sdk.run("return window.__events;")) == 5


def test_a_private_object_never_reaches_a_subscriber_who_cannot_read_it(js_sdk, cirrus, js_class):
    """A subscriber without a session sees public objects only: an object readable by one user alone, created with
    the master key, sends it nothing (not even its id), and hidden fields stay hidden in events."""
    user = rest(cirrus, "POST", "/users", {"username": "lq" + uuid.uuid4().hex[:8], "password": "secret-pw"})
    assert js_sdk.run(SUBSCRIBE, cls=js_class) == "subscribed"
    private = rest(cirrus, "POST", "/classes/" + js_class, {"n": 1, "ACL": {user["objectId"]: {"read": True, "write": True}}}, MASTER)
    public = rest(cirrus, "POST", "/classes/" + js_class, {"n": 2, "secret": "s"})
    rest(cirrus, "PUT", "/classes/%s/%s" % (js_class, private["objectId"]), {"n": 3}, MASTER)
    seen = events(js_sdk, 1)
    time.sleep(0.5)
    seen = js_sdk.run("return window.__events;")
    assert [(e["op"], e["id"]) for e in seen] == [("create", public["objectId"])]
    assert private["objectId"] not in str(seen)


def test_unsubscribe_stops_the_events(js_sdk, cirrus, js_class):
    """After `unsubscribe()` the SDK's query receives nothing more; another subscription on the same socket still
    does (so the silence is the unsubscribe's, not a broken socket's)."""
    assert js_sdk.run(SUBSCRIBE, cls=js_class, name="first") == "subscribed"
    assert js_sdk.run(SUBSCRIBE, cls=js_class, greaterThan=100, name="second") == "subscribed"
    first = rest(cirrus, "POST", "/classes/" + js_class, {"n": 1})
    assert [e["id"] for e in events(js_sdk, 1)] == [first["objectId"]]
    js_sdk.run("await window.__live.first.unsubscribe(); return true;")
    rest(cirrus, "POST", "/classes/" + js_class, {"n": 2})
    control = rest(cirrus, "POST", "/classes/" + js_class, {"n": 200})
    seen = events(js_sdk, 2)
    time.sleep(0.5)
    seen = js_sdk.run("return window.__events;")
    assert [(e["op"], e["id"]) for e in seen] == [("create", first["objectId"]), ("create", control["objectId"])]


@pytest.fixture(scope="module")
def users_server(tmp_path_factory):
    """A server whose `_User` class everyone may find (LiveQuery's `login` event is for `_User` subscriptions)."""
    with running_server(tmp_path_factory, "livequery-users", prepare=open_user_find) as server:
        yield server


def test_a_user_logging_in_anywhere_is_a_login_event_without_the_session_token(browser, users_server):
    """Seed 001's single-device log-in: a page subscribed to its user gets `login` when the user logs in from another
    client (here the Python SDK), with the user object and never the new session's token."""
    name, password = "lq" + uuid.uuid4().hex[:10], "pass-word-1"
    user = requests.post(users_server.url + "/1.1/users", json={"username": name, "password": password}, headers=APP, timeout=10).json()
    page = browser.open_sdk(users_server.url, APP_ID, APP_KEY)
    assert page.run("""
        window.__events = [];
        var live = await new AV.Query('_User').equalTo('objectId', args.id).subscribe();
        live.on('login', function (u) {
          window.__events.push({op: 'login', id: u.id, username: u.get('username'), token: u.getSessionToken() || null,
                               raw: JSON.stringify(u.toJSON())});
        });
        return 'subscribed';
    """, id=user["objectId"]) == "subscribed"
    login = requests.post(users_server.url + "/1.1/login", json={"username": name, "password": password}, headers=APP, timeout=10)
    assert login.status_code == 200
    seen = events(page, 1)
    assert [(e["op"], e["id"], e["username"]) for e in seen] == [("login", user["objectId"], name)]
    assert seen[0]["token"] is None and login.json()["sessionToken"] not in seen[0]["raw"]


def test_on_postgresql_a_write_through_one_server_reaches_a_subscriber_of_another(browser, cirrus, tmp_path_factory, js_class):
    """Two `cirrus serve` on one PostgreSQL schema: the page subscribes through the second, the writes go through the
    first; the change log they share carries them across."""
    if not cirrus.schema:
        pytest.skip("needs the PostgreSQL run (scripts/test runs this suite on both stores)")
    root = tmp_path_factory.mktemp("second")
    second = CirrusServer(cirrus_binary(), root / "data", root / "cirrus.log", schema=cirrus.schema, owns_schema=False)
    try:
        second.wait_until_ready()
        page = browser.open_sdk(second.url, APP_ID, APP_KEY)
        assert page.run(SUBSCRIBE, cls=js_class, greaterThan=0) == "subscribed"
        created = rest(cirrus, "POST", "/classes/" + js_class, {"n": 1})
        rest(cirrus, "PUT", "/classes/%s/%s" % (js_class, created["objectId"]), {"n": -1})
        seen = events(page, 2)
        assert [(e["op"], e["id"]) for e in seen] == [("create", created["objectId"]), ("leave", created["objectId"])]
    finally:
        assert second.stop() == 0, second.output()
