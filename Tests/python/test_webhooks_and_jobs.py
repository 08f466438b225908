"""Parse Cloud Code webhooks and scheduled jobs, against a webhook server of this module (a real HTTP server in a
thread): the `/hooks` registry API, function and trigger calls in Parse's framing (`X-Parse-Webhook-Key`,
`{success|error}`) driven by ParsePy and raw requests in two dialects, refusals that write nothing, a webhook that
misbehaves; then jobs: the `/jobs` API, runs on a per-second schedule recorded and readable, the `cirrus jobs` CLI,
and (on PostgreSQL) each run once across two servers sharing the database.
"""

import http.server
import json
import subprocess
import threading
import time
import uuid

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY, CirrusServer, cirrus_binary, parse_sdk_at, postgres_schema, running_server

HOOK_KEY = "pytest-webhook-key"


class WebhookServer:
    """Answers webhook calls by path (`/fn/<name>`, `/trigger/<name>`) and records each (path, key header, body)."""

    def __init__(self):
        self.calls = []
        self.lock = threading.Lock()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with owner.lock:
                    owner.calls.append({"path": self.path, "key": self.headers.get("X-Parse-Webhook-Key"), "body": body})
                status, reply = owner.answer(self.path, body)
                data = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except BrokenPipeError:
                    pass  # the caller gave up waiting (the slow webhook)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @staticmethod
    def answer(path, body):
        obj = body.get("object", {})
        if path == "/fn/hello":
            user = body.get("user") or {}
            return 200, {"success": {"greeting": "hi " + body["params"].get("name", "?"), "user": user.get("username"),
                                     "token": user.get("sessionToken"), "master": body["master"]}}
        if path == "/fn/fail":
            return 400, {"error": "nope"}
        if path == "/fn/coded":
            return 400, {"error": {"code": 3141, "message": "coded failure"}}
        if path == "/fn/job":
            return 200, {"success": {"ran": body["params"]}}
        if path == "/trigger/beforeSave":
            if obj.get("title") == "refuse":
                return 200, {"error": "refused title"}
            obj["checked"] = True
            if "original" in body:
                obj["seenOriginal"] = body["original"].get("title")
            return 200, {"success": obj}
        if path == "/trigger/beforeDelete":
            return 200, {"error": "kept"} if obj.get("keep") else {"success": {}}
        if path == "/garbage":
            return 200, b"<html>not json</html>"
        if path == "/slow":
            time.sleep(3)
            return 200, {"success": {}}
        return 200, {"success": {}}

    def recorded(self, path):
        with self.lock:
            return [call for call in self.calls if call["path"] == path]

    def stop(self):
        self.server.shutdown()


@pytest.fixture(scope="module")
def webhooks():
    server = WebhookServer()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, "webhooks", ("--hook-key", HOOK_KEY, "--engine-hook-timeout", "1")) as server:
        yield server


def parse_headers(master=False, session=None):
    result = {"X-Parse-Application-Id": APP_ID, "Content-Type": "application/json"}
    result["X-Parse-Master-Key" if master else "X-Parse-REST-API-Key"] = MASTER_KEY if master else APP_KEY
    if session:
        result["X-Parse-Session-Token"] = session
    return result


def lc_headers(master=False):
    return {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master" if master else APP_KEY, "Content-Type": "application/json"}


def hooks(server, method, path, body=None, master=True):
    return requests.request(method, server.url + "/parse/hooks/" + path, headers=parse_headers(master=master), json=body, timeout=10)


def register(server, path, body):
    response = hooks(server, "POST", path, body)
    assert response.status_code == 200, response.text
    return response.json()


def wait_until(predicate, timeout=10, what="the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what)


# MARK: The registry

def test_the_hooks_api_registers_lists_changes_and_removes_webhooks_with_parse_errors(server, webhooks):
    name = "reg" + uuid.uuid4().hex[:8]
    made = register(server, "functions", {"functionName": name, "url": webhooks.url + "/fn/x"})
    assert made == {"functionName": name, "url": webhooks.url + "/fn/x"}
    again = hooks(server, "POST", "functions", {"functionName": name, "url": webhooks.url + "/fn/y"})
    assert again.status_code == 400 and again.json() == {"code": 143, "error": "function name: %s already exists" % name}
    assert made in hooks(server, "GET", "functions").json()
    changed = hooks(server, "PUT", "functions/" + name, {"url": webhooks.url + "/fn/z"}).json()
    assert changed == {"functionName": name, "url": webhooks.url + "/fn/z"}
    assert hooks(server, "GET", "functions/" + name).json()["url"] == webhooks.url + "/fn/z"
    assert hooks(server, "PUT", "functions/" + name, {"__op": "Delete"}).json() == {}
    missing = hooks(server, "GET", "functions/" + name)
    assert missing.status_code == 400 and missing.json() == {"code": 143, "error": "no function named: %s is defined" % name}
    assert hooks(server, "PUT", "functions/" + name, {"url": webhooks.url}).json()["code"] == 143

    trigger = {"className": "Reg" + name, "triggerName": "beforeSave", "url": webhooks.url + "/trigger/beforeSave"}
    assert register(server, "triggers", trigger) == trigger
    taken = hooks(server, "POST", "triggers", trigger).json()
    assert taken == {"code": 143, "error": "class Reg%s already has trigger beforeSave" % name}
    assert hooks(server, "GET", "triggers/Reg%s/beforeSave" % name).json() == trigger
    assert hooks(server, "DELETE", "triggers/Reg%s/beforeSave" % name).json() == {}
    assert trigger not in hooks(server, "GET", "triggers").json()


@pytest.mark.parametrize("path, body", [
    ("functions", {"functionName": "x"}),
    ("functions", {"functionName": "x", "url": "ftp://example.com/"}),
    ("functions", {"functionName": "../x", "url": "http://example.com/"}),
    ("triggers", {"className": "C", "triggerName": "beforeFind", "url": "http://example.com/"}),
    ("triggers", {"className": "1bad", "triggerName": "beforeSave", "url": "http://example.com/"}),
    ("triggers", {"className": "C", "triggerName": "beforeLogin", "url": "http://example.com/"}),
])
def test_a_malformed_webhook_declaration_is_refused_with_143(server, path, body):
    response = hooks(server, "POST", path, body)
    assert response.status_code == 400 and response.json()["code"] == 143
    assert response.json()["error"].startswith("invalid hook declaration")


def test_only_the_master_key_reaches_the_hooks_api(server):
    assert hooks(server, "GET", "functions", master=False).status_code in (400, 401, 403)
    refused = hooks(server, "POST", "functions", {"functionName": "sneaky", "url": "http://example.com/"}, master=False)
    assert refused.status_code in (401, 403)
    assert "sneaky" not in [hook["functionName"] for hook in hooks(server, "GET", "functions").json()]


# MARK: Functions

def test_a_function_webhook_answers_parse_sdk_calls_and_leancloud_calls_signed_with_the_webhook_key(server, webhooks):
    register(server, "functions", {"functionName": "hello", "url": webhooks.url + "/fn/hello"})
    _, datatypes, user_module = parse_sdk_at(server.url)
    assert datatypes.Function("hello")(name="parse") == {"result": {"greeting": "hi parse", "user": None, "token": None, "master": False}}
    call = webhooks.recorded("/fn/hello")[-1]
    assert call["key"] == HOOK_KEY
    assert call["body"]["functionName"] == "hello" and call["body"]["params"] == {"name": "parse"}

    username = "webhook" + uuid.uuid4().hex[:8]
    signed = requests.post(server.url + "/1.1/users", headers=lc_headers(), json={"username": username, "password": "pw123456"}, timeout=10).json()
    reply = requests.post(server.url + "/parse/functions/hello", headers=parse_headers(session=signed["sessionToken"]), json={"name": "u"}, timeout=10)
    assert reply.json()["result"] == {"greeting": "hi u", "user": username, "token": signed["sessionToken"], "master": False}

    leancloud = requests.post(server.url + "/1.1/functions/hello", headers=lc_headers(master=True), json={"name": "lc"}, timeout=10)
    assert leancloud.status_code == 200 and leancloud.json()["result"]["greeting"] == "hi lc"
    assert leancloud.json()["result"]["master"] is True


def test_a_function_webhooks_error_reaches_the_caller_as_141_or_its_own_code(server, webhooks):
    register(server, "functions", {"functionName": "fail", "url": webhooks.url + "/fn/fail"})
    register(server, "functions", {"functionName": "coded", "url": webhooks.url + "/fn/coded"})
    failed = requests.post(server.url + "/parse/functions/fail", headers=parse_headers(), json={}, timeout=10)
    assert failed.status_code == 400 and failed.json() == {"code": 141, "error": "nope"}
    coded = requests.post(server.url + "/1.1/functions/coded", headers=lc_headers(), json={}, timeout=10)
    assert coded.json() == {"code": 3141, "error": "coded failure"}
    unknown = requests.post(server.url + "/parse/functions/nobody", headers=parse_headers(), json={}, timeout=10)
    assert unknown.status_code == 400 and unknown.json()["code"] == 141


# MARK: Triggers

def test_before_save_webhooks_change_creates_and_updates_and_refusals_write_nothing(server, webhooks):
    class_name = "Hooked" + uuid.uuid4().hex[:8]
    register(server, "triggers", {"className": class_name, "triggerName": "beforeSave", "url": webhooks.url + "/trigger/beforeSave"})
    connection, datatypes, _ = parse_sdk_at(server.url)
    Post = type(class_name, (datatypes.Object,), {})

    post = Post(title="first", n=1)
    post.save()
    stored = requests.get(server.url + "/parse/classes/%s/%s" % (class_name, post.objectId), headers=parse_headers(), timeout=10).json()
    assert stored["checked"] is True and stored["title"] == "first"
    sent = webhooks.recorded("/trigger/beforeSave")[-1]
    assert sent["key"] == HOOK_KEY
    assert sent["body"]["triggerName"] == "beforeSave" and sent["body"]["object"]["className"] == class_name
    assert "original" not in sent["body"]

    updated = requests.put(server.url + "/parse/classes/%s/%s" % (class_name, post.objectId), headers=parse_headers(),
                           json={"title": "second", "n": {"__op": "Increment", "amount": 2}}, timeout=10)
    assert updated.status_code == 200, updated.text
    call = webhooks.recorded("/trigger/beforeSave")[-1]["body"]
    assert call["original"]["title"] == "first" and call["object"]["title"] == "second"
    stored = requests.get(server.url + "/parse/classes/%s/%s" % (class_name, post.objectId), headers=parse_headers(), timeout=10).json()
    assert stored["seenOriginal"] == "first" and stored["n"] == 3 and stored["title"] == "second"

    refused = requests.post(server.url + "/1.1/classes/" + class_name, headers=lc_headers(), json={"title": "refuse"}, timeout=10)
    assert refused.status_code == 400 and refused.json()["code"] == 142 and "refused title" in refused.json()["error"]
    listed = requests.get(server.url + "/parse/classes/" + class_name, headers=parse_headers(master=True), timeout=10).json()["results"]
    assert [o["title"] for o in listed] == ["second"]


def test_after_save_and_delete_webhooks_arrive_once_after_the_write_and_before_delete_can_refuse(server, webhooks):
    class_name = "After" + uuid.uuid4().hex[:8]
    for trigger in ("afterSave", "beforeDelete", "afterDelete"):
        register(server, "triggers", {"className": class_name, "triggerName": trigger, "url": webhooks.url + "/trigger/" + trigger})
    base = server.url + "/parse/classes/" + class_name
    kept = requests.post(base, headers=parse_headers(), json={"keep": True}, timeout=10).json()
    gone = requests.post(base, headers=parse_headers(), json={"keep": False}, timeout=10).json()

    def after_saves():
        calls = [c for c in webhooks.recorded("/trigger/afterSave") if c["body"]["object"]["className"] == class_name]
        return calls if len(calls) == 2 else None
    saves = wait_until(after_saves, what="two afterSave calls")
    assert sorted(c["body"]["object"]["objectId"] for c in saves) == sorted([kept["objectId"], gone["objectId"]])

    refused = requests.delete(base + "/" + kept["objectId"], headers=parse_headers(), timeout=10)
    assert refused.status_code == 400 and refused.json()["code"] == 142 and "kept" in refused.json()["error"]
    assert requests.get(base + "/" + kept["objectId"], headers=parse_headers(), timeout=10).status_code == 200
    assert requests.delete(base + "/" + gone["objectId"], headers=parse_headers(), timeout=10).status_code == 200
    deletes = wait_until(lambda: [c for c in webhooks.recorded("/trigger/afterDelete") if c["body"]["object"].get("objectId") == gone["objectId"]],
                         what="the afterDelete call")
    time.sleep(1)
    assert len([c for c in webhooks.recorded("/trigger/afterSave") if c["body"]["object"]["className"] == class_name]) == 2
    assert len(deletes) == 1 and deletes[0]["body"]["triggerName"] == "afterDelete"


@pytest.mark.parametrize("path, message", [("/garbage", "malformed response"), ("/slow", "did not answer")])
def test_a_webhook_answering_garbage_or_too_slowly_refuses_the_write_and_writes_nothing(server, webhooks, path, message):
    class_name = "Broken" + uuid.uuid4().hex[:8]
    register(server, "triggers", {"className": class_name, "triggerName": "beforeSave", "url": webhooks.url + path})
    refused = requests.post(server.url + "/parse/classes/" + class_name, headers=parse_headers(), json={"a": 1}, timeout=20)
    assert refused.status_code == 400 and refused.json()["code"] == 142 and message in refused.json()["error"]
    count = requests.get(server.url + "/parse/classes/" + class_name, headers=parse_headers(master=True), params={"count": 1, "limit": 0}, timeout=10)
    assert count.json().get("count", 0) == 0
    assert requests.get(server.url + "/1.1/date", timeout=5).status_code == 200


# MARK: Scheduled jobs

def jobs(server, method, path="", body=None, master=True, params=None):
    return requests.request(method, server.url + "/1.1/jobs" + path, headers=lc_headers(master=master), json=body, params=params, timeout=20)


def test_a_job_on_a_per_second_schedule_runs_and_its_runs_are_recorded_and_readable(server, webhooks):
    register(server, "functions", {"functionName": "job", "url": webhooks.url + "/fn/job"}) if not any(
        h["functionName"] == "job" for h in hooks(server, "GET", "functions").json()) else None
    name = "tick" + uuid.uuid4().hex[:6]
    made = jobs(server, "POST", body={"name": name, "function": "job", "cron": "* * * * * ?", "params": {"tag": name}})
    assert made.status_code == 201, made.text
    assert made.json()["nextRunAt"]["__type"] == "Date" and made.json()["enabled"] is True

    runs = wait_until(lambda: [r for r in jobs(server, "GET", "/%s/runs" % name).json()["results"] if r["status"] == "succeeded"][:2]
                      if len([r for r in jobs(server, "GET", "/%s/runs" % name).json()["results"] if r["status"] == "succeeded"]) >= 2 else None,
                      timeout=15, what="two runs")
    assert all(r["result"] == {"ran": {"tag": name}} for r in runs)
    assert len({r["scheduledAt"]["iso"] for r in runs}) == len(runs)

    off = jobs(server, "PUT", "/" + name, {"enabled": False}).json()
    assert off["enabled"] is False and off["nextRunAt"] is None
    time.sleep(1.5)
    counted = len(jobs(server, "GET", "/%s/runs" % name, params={"limit": 100}).json()["results"])
    time.sleep(2)
    assert len(jobs(server, "GET", "/%s/runs" % name, params={"limit": 100}).json()["results"]) == counted

    now = jobs(server, "POST", "/%s/run" % name).json()
    assert now["status"] == "succeeded" and now["result"] == {"ran": {"tag": name}}
    assert jobs(server, "DELETE", "/" + name).json() == {}
    assert "No job named" in jobs(server, "GET", "/" + name).json()["error"]


def test_a_job_whose_function_fails_records_the_failure(server):
    name = "failing" + uuid.uuid4().hex[:6]
    assert jobs(server, "POST", body={"name": name, "function": "nosuchfunction", "cron": "0 0 1 1 *"}).status_code == 201
    run = jobs(server, "POST", "/%s/run" % name).json()
    assert run["status"] == "failed" and "nosuchfunction" in run["error"]["error"]
    jobs(server, "DELETE", "/" + name)


@pytest.mark.parametrize("body, fragment", [
    ({"name": "x", "function": "f", "cron": "61 * * * *"}, "minute"),
    ({"name": "x", "function": "f", "cron": "* * *"}, "5 fields"),
    ({"name": "x", "function": "f", "cron": "0 0 L * ?"}, "not supported"),
    ({"name": "x", "function": "f", "cron": "0 0 * * *", "timeZone": "Mars/Olympus"}, "time zone"),
    ({"name": "bad name", "function": "f", "cron": "0 0 * * *"}, "name"),
    ({"name": "x", "function": "f", "cron": "0 0 * * *", "params": [1]}, "params"),
    ({"name": "x", "cron": "0 0 * * *"}, "function"),
])
def test_a_malformed_job_is_refused_with_a_clear_error(server, body, fragment):
    response = jobs(server, "POST", body=body)
    assert response.status_code == 400 and fragment in response.json()["error"], response.text


def test_only_the_master_key_manages_jobs_and_names_are_unique(server):
    assert jobs(server, "GET", master=False).status_code in (400, 401, 403)
    assert jobs(server, "POST", body={"name": "mine", "function": "f", "cron": "0 0 * * *"}, master=False).status_code in (400, 401, 403)
    name = "unique" + uuid.uuid4().hex[:6]
    assert jobs(server, "POST", body={"name": name, "function": "f", "cron": "0 0 * * *"}).status_code == 201
    duplicate = jobs(server, "POST", body={"name": name, "function": "g", "cron": "0 0 * * *"})
    assert duplicate.status_code == 400 and duplicate.json()["code"] == 137
    jobs(server, "DELETE", "/" + name)


def test_the_cli_adds_lists_runs_and_removes_jobs_beside_a_running_server(server, webhooks):
    if not any(h["functionName"] == "job" for h in hooks(server, "GET", "functions").json()):
        register(server, "functions", {"functionName": "job", "url": webhooks.url + "/fn/job"})
    store = ["--database", server.schema[1]] if server.schema else ["--data-dir", str(server.data_dir)]

    def cli(*args):
        result = subprocess.run([cirrus_binary(), "jobs", *args, *store], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return result.stdout

    name = "cli" + uuid.uuid4().hex[:6]
    added = json.loads(cli("add", name, "--function", "job", "--cron", "0 0 3 * * ?", "--time-zone", "Asia/Shanghai", "--params", '{"via":"cli"}'))
    assert added["nextRunAt"]["iso"].endswith("T19:00:00.000Z")
    assert name in [json.loads(line)["name"] for line in cli("list").splitlines()]
    cli("run", name)
    run = wait_until(lambda: [r for r in jobs(server, "GET", "/%s/runs" % name).json()["results"] if r["status"] != "running"],
                     what="the run the CLI asked for")[0]
    assert run["status"] == "succeeded" and run["result"] == {"ran": {"via": "cli"}}
    assert json.loads(cli("runs", name).splitlines()[0])["status"] == "succeeded"
    assert jobs(server, "GET", "/" + name).json()["nextRunAt"]["iso"].endswith("T19:00:00.000Z")
    cli("remove", name)
    assert "No job named" in jobs(server, "GET", "/" + name).json()["error"]


def test_each_run_happens_once_across_servers_sharing_a_postgresql_database(tmp_path_factory, webhooks):
    schema = postgres_schema()
    if schema is None:
        pytest.skip("servers share a database on PostgreSQL only")
    root = tmp_path_factory.mktemp("shared-jobs")
    servers = [CirrusServer(cirrus_binary(), root / ("data%d" % i), root / ("cirrus%d.log" % i), ("--hook-key", HOOK_KEY),
                            schema=schema, owns_schema=(i == 1)) for i in range(2)]
    try:
        for one in servers:
            one.wait_until_ready()
        register(servers[0], "functions", {"functionName": "job", "url": webhooks.url + "/fn/job"})
        name = "shared" + uuid.uuid4().hex[:6]
        assert jobs(servers[1], "POST", body={"name": name, "function": "job", "cron": "* * * * * ?", "params": {"tag": name}}).status_code == 201
        time.sleep(5)
        jobs(servers[0], "PUT", "/" + name, {"enabled": False})
        time.sleep(1)
        runs = jobs(servers[0], "GET", "/%s/runs" % name, params={"limit": 100}).json()["results"]
        calls = [c for c in webhooks.recorded("/fn/job") if c["body"]["params"].get("tag") == name]
        assert len(runs) >= 3
        assert len({r["scheduledAt"]["iso"] for r in runs}) == len(runs)
        assert len(calls) == len(runs)
    finally:
        for one in servers:
            one.stop()
