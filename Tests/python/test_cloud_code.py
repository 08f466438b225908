"""Cloud code against a real LeanEngine app: the `leancloud` package's own Engine (engine/app.py) in its own process,
its SDK pointed back at Cirrus, driven by the LeanCloud Python SDK's `cloud.run` and `cloud.rpc`, object saves,
log-ins and raw requests; then an engine that misbehaves (down, slow, HTML, garbage, 500, redirects, huge replies).

Each module server is a `cirrus serve` started with `--engine-url`, `--hook-key` and short time limits.
"""

import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY, CirrusServer, Outbox, cirrus_binary, free_port, leancloud_sdk_at, postgres_schema, running_server

HOOK_KEY = "pytest-hook-key"
ENGINE_APP = Path(__file__).resolve().parent / "engine" / "app.py"


def headers(master=False, hook_key=None, session=None):
    result = {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master" if master else APP_KEY, "Content-Type": "application/json"}
    if hook_key:
        result["X-LC-Hook-Key"] = hook_key
    if session:
        result["X-LC-Session"] = session
    return result


def wait_for(url, process, what, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError("%s exited with %s" % (what, process.returncode))
        try:
            requests.get(url, timeout=2)
            return
        except requests.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError("%s did not answer on %s" % (what, url))


class Engine:
    """The LeanEngine app in its own process, and the hook calls it received."""

    def __init__(self, root, port):
        self.port = port
        self.url = "http://127.0.0.1:%d" % port
        self.calls_path = root / "engine-calls.jsonl"
        self.calls_path.write_text("")
        self.log = open(root / "engine.log", "wb")
        self.process = None

    def start(self, api_server):
        env = dict(os.environ)
        env.update({
            "LEANCLOUD_APP_ID": APP_ID, "LEANCLOUD_APP_KEY": APP_KEY, "LEANCLOUD_APP_MASTER_KEY": MASTER_KEY,
            "LEANCLOUD_APP_HOOK_KEY": HOOK_KEY, "LEANCLOUD_API_SERVER": api_server, "ENGINE_PORT": str(self.port),
            "ENGINE_CALLS": str(self.calls_path),
        })
        self.process = subprocess.Popen([sys.executable, str(ENGINE_APP)], env=env, stdout=self.log, stderr=subprocess.STDOUT)
        wait_for(self.url + "/__engine/1/ping", self.process, "the engine")

    def calls(self, hook=None):
        lines = [json.loads(line) for line in self.calls_path.read_text().splitlines() if line]
        return [call for call in lines if hook is None or call["hook"] == hook]

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.log.close()


@pytest.fixture(scope="module")
def engine_server(tmp_path_factory):
    """A Cirrus whose engine is the LeanEngine app; the engine starts after Cirrus (it needs Cirrus's URL), so Cirrus
    first finds no engine and reads its hooks on the first hooked write."""
    root = tmp_path_factory.mktemp("cloud")
    engine = Engine(root, free_port())
    args = ("--engine-url", engine.url, "--hook-key", HOOK_KEY, "--engine-timeout", "2", "--engine-hook-timeout", "3",
            "--auth-trust", "weibo")
    with running_server(tmp_path_factory, "cloud-cirrus", args) as server:
        engine.start(server.url)
        try:
            yield server, engine
        finally:
            engine.stop()


@pytest.fixture
def lc(engine_server):
    """The LeanCloud SDK pointed at the engine's Cirrus, with the app key and no current user."""
    server, _ = engine_server
    with leancloud_sdk_at(server.url) as leancloud:
        leancloud.User.set_current(None)
        yield leancloud
        leancloud.User.set_current(None)
    # The session's other tests find the SDK as its fixture left it: initialised for the session's server.
    import leancloud as sdk
    sdk.init(APP_ID, app_key=APP_KEY, master_key=MASTER_KEY)


def api(server, method, path, **kwargs):
    kwargs.setdefault("headers", headers())
    return requests.request(method, server.url + path, timeout=30, **kwargs)


def reviews_titled(server, title):
    where = json.dumps({"title": title})
    reply = api(server, "GET", "/1.1/classes/Review", params={"where": where}, headers=headers(master=True))
    assert reply.status_code == 200, reply.text
    return reply.json()["results"]


def test_functions_run_with_the_callers_user_and_rpc_carries_objects(lc):
    assert lc.cloud.run("hello", name="Ada") == "Hello, Ada!"
    assert lc.cloud.run("whoami") is None
    user = lc.User()
    user.sign_up("cloud_" + uuid.uuid4().hex[:8], "pass-word-1")
    assert lc.cloud.run("whoami") == user.get_username()
    review = lc.Object.extend("Review")()
    review.set("title", "rpc " + uuid.uuid4().hex[:6])
    review.set("stars", 5)
    review.save()
    echoed = lc.cloud.rpc("echo_object", review=review)
    assert isinstance(echoed, lc.Object) and echoed.id == review.id and echoed.get("echoed") is True


def test_a_functions_own_error_reaches_the_caller_unchanged_and_a_slow_one_times_out(lc, engine_server):
    server, _ = engine_server
    with pytest.raises(lc.LeanCloudError) as failed:
        lc.cloud.run("fail")
    assert (failed.value.code, failed.value.error) == (3721, "the function says no")
    with pytest.raises(lc.LeanCloudError) as crashed:
        lc.cloud.run("crash")
    assert crashed.value.code == 141
    missing = api(server, "POST", "/1.1/functions/no_such_function", json={})
    assert missing.status_code >= 400 and "no_such_function" in missing.json()["error"]
    started = time.monotonic()
    with pytest.raises(lc.LeanCloudError) as slow:
        lc.cloud.run("sleepy", seconds=6)
    assert slow.value.code == 124 and time.monotonic() - started < 5.5
    # The Parse and Bmob forms reach the same functions, answered in their dialects.
    parse = requests.post(server.url + "/parse/functions/hello", json={"name": "Parse"}, timeout=10,
                          headers={"X-Parse-Application-Id": APP_ID, "X-Parse-REST-API-Key": APP_KEY})
    assert parse.json() == {"result": "Hello, Parse!"}
    bmob = requests.post(server.url + "/1/functions/hello", json={"name": "Bmob"}, timeout=10,
                         headers={"X-Bmob-Application-Id": APP_ID, "X-Bmob-REST-API-Key": APP_KEY})
    assert bmob.json() == {"result": "Hello, Bmob!"}


def test_before_save_changes_what_is_saved_or_refuses_with_142_and_nothing_written(lc, engine_server):
    server, engine = engine_server
    Review = lc.Object.extend("Review")
    title = "long " + uuid.uuid4().hex[:8]
    review = Review()
    review.set("title", title)
    review.set("stars", 4)
    review.set("comment", "a comment far longer than ten characters")
    review.save()
    stored = Review.create_without_data(review.id)
    stored.fetch()
    assert stored.get("comment") == "a comment ..." and stored.get("checked") is True
    refused_title = "refused " + uuid.uuid4().hex[:8]
    refused = Review()
    refused.set("title", refused_title)
    refused.set("stars", 0)
    with pytest.raises(lc.LeanCloudError) as error:
        refused.save()
    assert error.value.code == 142
    assert error.value.error == "Cloud Code validation failed. Error detail : a review needs at least one star"
    assert reviews_titled(server, refused_title) == []
    # CQL inserts and batch items pass the same hook, each item on its own.
    cql = api(server, "GET", "/1.1/cloudQuery", params={"cql": "insert into Review(title, stars) values('%s', 0)" % refused_title})
    assert cql.status_code == 400 and cql.json()["code"] == 142
    batch = api(server, "POST", "/1.1/batch", json={"requests": [
        {"method": "POST", "path": "/1.1/classes/Review", "body": {"title": refused_title, "stars": 0}},
        {"method": "POST", "path": "/1.1/classes/Review", "body": {"title": refused_title + "-ok", "stars": 2}},
    ]})
    items = batch.json()
    assert items[0]["error"]["code"] == 142 and "success" in items[1], items
    assert reviews_titled(server, refused_title) == [] and len(reviews_titled(server, refused_title + "-ok")) == 1


def test_before_update_sees_the_updated_keys_and_before_delete_refuses(lc, engine_server):
    server, engine = engine_server
    Review = lc.Object.extend("Review")
    review = Review()
    review.set("title", "update " + uuid.uuid4().hex[:8])
    review.set("stars", 3)
    review.save()
    review.set("stars", 9)
    with pytest.raises(lc.LeanCloudError) as refused:
        review.save()
    assert refused.value.code == 142 and refused.value.error.endswith("updated keys: stars")
    fresh = Review.create_without_data(review.id)
    fresh.fetch()
    assert fresh.get("stars") == 3
    fresh.set("locked", True)
    fresh.save()
    assert [call["id"] for call in engine.calls("beforeUpdate")].count(review.id) == 2
    with pytest.raises(lc.LeanCloudError) as kept:
        fresh.destroy()
    assert kept.value.code == 142 and "a locked review stays" in kept.value.error
    fresh.fetch()
    unlocked = Review()
    unlocked.set("title", "deleted " + uuid.uuid4().hex[:8])
    unlocked.set("stars", 2)
    unlocked.save()
    unlocked.destroy()
    assert reviews_titled(server, unlocked.get("title")) == []
    deleted = [call for call in engine.calls("beforeDelete") if call["id"] == unlocked.id]
    assert len(deleted) == 1 and deleted[0]["fields"]["title"] == unlocked.get("title")


def test_the_engine_saves_back_skipping_its_hook_and_only_the_hook_key_may_skip(lc, engine_server):
    server, engine = engine_server
    title = "unchecked " + uuid.uuid4().hex[:8]
    object_id = lc.cloud.run("save_unchecked", title=title)
    assert [review["objectId"] for review in reviews_titled(server, title)] == [object_id]
    assert all(call["id"] != object_id for call in engine.calls("beforeSave"))
    body = {"title": title + "-client", "stars": 0, "__ignore_hooks": ["beforeSave"]}
    for key in (None, "a-wrong-hook-key"):
        refused = api(server, "POST", "/1.1/classes/Review", json=body, headers=headers(hook_key=key))
        assert refused.status_code == 403 and refused.json()["code"] == 403, refused.text
    assert reviews_titled(server, title + "-client") == []
    allowed = api(server, "POST", "/1.1/classes/Review", json=body, headers=headers(hook_key=HOOK_KEY))
    assert allowed.status_code == 201, allowed.text
    # A delete carries its skips in its body (R#121); the master key may skip too.
    object_id = allowed.json()["objectId"]
    api(server, "PUT", "/1.1/classes/Review/" + object_id, json={"locked": True}, headers=headers(master=True))
    deleted = api(server, "DELETE", "/1.1/classes/Review/" + object_id, json={"__ignore_hooks": ["beforeDelete"]}, headers=headers(master=True))
    assert deleted.status_code == 200, deleted.text
    assert reviews_titled(server, title + "-client") == []


def test_on_login_may_refuse_a_user_and_on_auth_data_checks_third_party_data(lc, engine_server):
    server, _ = engine_server
    banned = api(server, "POST", "/1.1/users", json={"username": "banned", "password": "pass-word-1"})
    assert banned.status_code in (201, 400), banned.text
    with pytest.raises(lc.LeanCloudError) as refused:
        lc.User().login("banned", "pass-word-1")
    assert refused.value.code == 142 and "this user may not log in" in refused.value.error
    name = "allowed_" + uuid.uuid4().hex[:8]
    lc.User().sign_up(name, "pass-word-1")
    lc.User.set_current(None)
    lc.User().login(name, "pass-word-1")
    assert lc.User.get_current().get_username() == name
    denied = api(server, "POST", "/1.1/users", json={"authData": {"weibo": {"uid": "refused", "access_token": "t"}}})
    assert denied.status_code == 400 and denied.json()["code"] == 142, denied.text
    uid = "ok-" + uuid.uuid4().hex[:8]
    created = api(server, "POST", "/1.1/users", json={"authData": {"weibo": {"uid": uid, "access_token": "t"}}})
    assert created.status_code == 201, created.text
    stored = api(server, "GET", "/1.1/users/" + created.json()["objectId"], headers=headers(master=True)).json()
    assert stored["authData"]["weibo"]["checked_by_engine"] is True


def test_on_verified_hears_of_a_verified_phone_number(engine_server):
    server, engine = engine_server
    number = "+8613%09d" % (uuid.uuid4().int % 10**9)
    signed_up = api(server, "POST", "/1.1/users", json={"username": "phone_" + uuid.uuid4().hex[:8], "password": "pass-word-1",
                                                        "mobilePhoneNumber": number})
    assert signed_up.status_code == 201, signed_up.text
    assert api(server, "POST", "/1.1/requestMobilePhoneVerify", json={"mobilePhoneNumber": number}).status_code == 200
    code = Outbox.of(server).code(number)
    verified = api(server, "POST", "/1.1/verifyMobilePhone/" + code, json={"mobilePhoneNumber": number})
    assert verified.status_code == 200, verified.text
    user_id = signed_up.json()["objectId"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not [c for c in engine.calls("onVerified/sms") if c["id"] == user_id]:
        time.sleep(0.1)
    calls = [call for call in engine.calls("onVerified/sms") if call["id"] == user_id]
    assert len(calls) == 1 and calls[0]["fields"]["mobilePhoneVerified"] is True


def calls_for(engine, object_id, count, timeout=10):
    """The hook calls the engine received for `object_id`, once there are `count` (or after `timeout` seconds), and after
    a moment more, so that a call made twice would be seen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len([c for c in engine.calls() if c["id"] == object_id]) < count:
        time.sleep(0.1)
    time.sleep(1.5)
    return [call for call in engine.calls() if call["id"] == object_id]


def test_after_hooks_arrive_once_each_in_the_order_of_the_writes_and_only_the_hook_key_skips_them(engine_server):
    server, engine = engine_server
    created = api(server, "POST", "/1.1/classes/Diary", json={"entry": "first"})
    assert created.status_code == 201, created.text
    object_id = created.json()["objectId"]
    assert api(server, "PUT", "/1.1/classes/Diary/" + object_id, json={"entry": "second"}).status_code == 200
    assert api(server, "DELETE", "/1.1/classes/Diary/" + object_id).status_code == 200
    calls = calls_for(engine, object_id, 3)
    assert [call["hook"] for call in calls] == ["afterSave", "afterUpdate", "afterDelete"], calls
    assert calls[1]["fields"]["entry"] == "second"
    skipped = api(server, "POST", "/1.1/classes/Diary", json={"entry": "quiet", "__ignore_hooks": ["afterSave"]},
                  headers=headers(hook_key=HOOK_KEY))
    assert skipped.status_code == 201, skipped.text
    assert calls_for(engine, skipped.json()["objectId"], 1, timeout=2) == []


def test_an_after_hook_owed_when_the_server_is_killed_is_delivered_once_after_it_restarts(tmp_path_factory):
    root = tmp_path_factory.mktemp("after-hooks")
    engine = Engine(root, free_port())
    schema = postgres_schema()
    args = ("--engine-url", engine.url, "--hook-key", HOOK_KEY)
    first = CirrusServer(cirrus_binary(), root / "data", root / "first.log", extra_args=args, schema=schema, owns_schema=False)
    second = None
    try:
        first.wait_until_ready()
        engine.start(first.url)
        warm = api(first, "POST", "/1.1/classes/Diary", json={"entry": "warm"})
        assert [call["hook"] for call in calls_for(engine, warm.json()["objectId"], 1)] == ["afterSave"]
        # The engine goes away; a write commits; the server is killed before it could deliver the hook.
        engine.stop()
        owed = api(first, "POST", "/1.1/classes/Diary", json={"entry": "owed"})
        assert owed.status_code == 201, owed.text
        first.process.kill()
        first.process.wait()
        engine.log = open(root / "engine-again.log", "wb")
        engine.start(first.url)
        second = CirrusServer(cirrus_binary(), root / "data", root / "second.log", extra_args=args, schema=schema, owns_schema=True)
        second.wait_until_ready()
        calls = calls_for(engine, owed.json()["objectId"], 1, timeout=45)
        assert [call["hook"] for call in calls] == ["afterSave"], calls
    finally:
        if second:
            assert second.stop() == 0, second.output()
        elif first.process.poll() is None:
            first.stop()
        engine.stop()


class MisbehavingEngine(http.server.BaseHTTPRequestHandler):
    """An engine that lists a beforeSave hook of `Thing` and answers each function (and that hook) badly."""

    def do_GET(self):
        self.reply(200, json.dumps({"result": ["html", "__before_save_for_Thing"]}).encode())

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        name = self.path.rsplit("/", 1)[-1]
        if name == "html" or name == "beforeSave":
            self.reply(200, b"<html><body>Bad gateway</body></html>", "text/html")
        elif name == "garbage":
            self.reply(200, b"\x00\xff{not json")
        elif name == "error500":
            self.reply(500, b"Internal Server Error", "text/plain")
        elif name == "redirect":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif name == "huge":
            self.reply(200, b'{"result":"' + b"x" * (20 << 20) + b'"}')
        elif name == "slow":
            time.sleep(5)
            self.reply(200, b'{"result":"late"}')
        else:
            self.reply(404, b'{"code":1,"error":"unknown"}')

    def reply(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format, *args):
        pass


@pytest.mark.sqlite_only("the engine's replies are read before any write; a refused write is the store's rollback, tested on both stores elsewhere")
def test_a_misbehaving_or_absent_engine_gets_clear_errors_and_changes_nothing(tmp_path_factory, cirrus):
    bad = http.server.ThreadingHTTPServer(("127.0.0.1", 0), MisbehavingEngine)
    bad.daemon_threads = True
    threading.Thread(target=bad.serve_forever, daemon=True).start()
    try:
        args = ("--engine-url", "http://127.0.0.1:%d" % bad.server_address[1], "--hook-key", HOOK_KEY, "--engine-timeout", "2",
                "--engine-hook-timeout", "2")
        with running_server(tmp_path_factory, "bad-engine", args) as server:
            for name, code in [("html", 141), ("garbage", 141), ("error500", 141), ("redirect", 141), ("huge", 141), ("slow", 124)]:
                reply = api(server, "POST", "/1.1/functions/" + name, json={})
                assert reply.status_code >= 400 and reply.json()["code"] == code, (name, reply.text)
                assert api(server, "GET", "/1.1/date").status_code == 200
            refused = api(server, "POST", "/1.1/classes/Thing", json={"name": "x"})
            assert refused.status_code == 400 and refused.json()["code"] == 142, refused.text
            things = api(server, "GET", "/1.1/classes/Thing", headers=headers(master=True))
            assert things.status_code in (200, 404) and things.json().get("results", []) == []
    finally:
        bad.shutdown()
        bad.server_close()
    # An engine that is down (a port held bound and never listened on: connections are refused, and no other test's
    # server can take it): functions fail clearly, and a write is refused while no list of hooks was ever read.
    down_port = socket.socket()
    down_port.bind(("127.0.0.1", 0))
    args = ("--engine-url", "http://127.0.0.1:%d" % down_port.getsockname()[1], "--hook-key", HOOK_KEY)
    with running_server(tmp_path_factory, "no-engine", args) as server, down_port:
        down = api(server, "POST", "/1.1/functions/hello", json={})
        assert down.status_code == 400 and down.json()["code"] == 141 and "could not be reached" in down.json()["error"]
        write = api(server, "POST", "/1.1/classes/Thing", json={"name": "x"})
        assert write.status_code == 400 and write.json()["code"] == 142, write.text
    # Without an engine (the session's server), a function is LeanCloud's "no such cloud function".
    none = api(cirrus, "POST", "/1.1/functions/hello", json={})
    assert none.status_code == 404 and none.json()["code"] == 1
