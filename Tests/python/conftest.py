"""Fixtures that run a real `cirrus serve` and point the LeanCloud Python SDK (leancloud==3.0.2) at it.

The server binary comes from CIRRUS_BIN (scripts/test sets it), else <repo>/Server/.build/debug/cirrus. It listens on a
free loopback port with a temporary data directory and the keys below. The SDK reaches it through
LEANCLOUD_API_SERVER; its AppRouter, which would ask the internet where the app lives, is replaced by a class that
raises, and every response the SDK receives is recorded so tests can check what went over the wire.
"""

import contextlib
import itertools
import os
import re
import socket
import subprocess
import uuid
import time
from pathlib import Path

import pytest
import requests

APP_ID = "pytest-app-id"
APP_KEY = "pytest-app-key"
MASTER_KEY = "pytest-master-key"
REPO_ROOT = Path(__file__).resolve().parents[2]


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "sqlite_only(reason): a test of what no store changes (an engine's or a socket's misbehaviour, a console screen "
        "over the API): run on SQLite only, as CI's time is short; the reason says why the store does not matter.",
    )


def pytest_collection_modifyitems(config, items):
    if not os.environ.get("CIRRUS_PYTEST_POSTGRES_URL"):
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker:
            item.add_marker(pytest.mark.skip(reason="SQLite only: " + (marker.args[0] if marker.args else "store-independent")))


def postgres_schema():
    """With CIRRUS_PYTEST_POSTGRES_URL set (scripts/test sets it for its second run), a new schema on that PostgreSQL
    server and the --database URL that uses it; else None (the SQLite store in the data directory)."""
    base = os.environ.get("CIRRUS_PYTEST_POSTGRES_URL")
    if not base:
        return None
    schema = "py_" + uuid.uuid4().hex[:16]
    subprocess.run(["psql", base, "-q", "-c", "CREATE SCHEMA " + schema], check=True)
    return schema, base + ("&" if "?" in base else "?") + "search_path=" + schema


class CirrusServer:
    """A running `cirrus serve` child process, on SQLite or (see postgres_schema) on its own PostgreSQL schema."""

    def __init__(self, binary, data_dir, log_path, extra_args=(), schema=None, owns_schema=True):
        # `schema`: a (name, URL) of postgres_schema() already filled (by `cirrus import`, or another server's);
        # dropped by stop() unless `owns_schema` is false.
        self.schema = schema or postgres_schema()
        self.owns_schema = owns_schema
        if self.schema:
            extra_args = ("--database", self.schema[1], *extra_args)
        self.data_dir = Path(data_dir)
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.log_path = log_path
        self._log = open(log_path, "wb")
        self.process = subprocess.Popen(
            [
                binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(data_dir),
                "--app-id", APP_ID, "--app-key", APP_KEY, "--master-key", MASTER_KEY,
                # LiveQuery's WebSocket on a free port (its default, the API's port plus one, may be another server's).
                "--livequery-port", "0",
                # scrypt at log2 N = 10 rather than 15: the debug build's BoringSSL takes a second a hash at the default,
                # which was a third of this suite's time. The default's hashes are tested in Swift (PasswordHasherTests).
                "--password-cost", "10",
                *extra_args,
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={k: v for k, v in os.environ.items() if not k.startswith("CIRRUS_")},
        )

    def output(self):
        return Path(self.log_path).read_text(errors="replace")

    def wait_until_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("cirrus exited with %s before it was ready:\n%s" % (self.process.returncode, self.output()))
            try:
                if requests.get(self.url + "/1.1/date", timeout=2).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.05)
        raise RuntimeError("cirrus did not answer on %s within %ss:\n%s" % (self.url, timeout, self.output()))

    def stop(self):
        self.process.terminate()
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            code = None
        self._log.close()
        if self.schema and self.owns_schema:
            base = os.environ["CIRRUS_PYTEST_POSTGRES_URL"]
            subprocess.run(["psql", base, "-q", "-c", "DROP SCHEMA %s CASCADE" % self.schema[0]], check=True)
        return code


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cirrus_binary():
    binary = os.environ.get("CIRRUS_BIN") or str(REPO_ROOT / "Server" / ".build" / "debug" / "cirrus")
    if not os.access(binary, os.X_OK):
        pytest.exit(
            "cirrus executable not found at %s: run `swift build --package-path Server --product cirrus` or set CIRRUS_BIN" % binary,
            returncode=2,
        )
    return binary


@contextlib.contextmanager
def running_server(tmp_path_factory, name, extra_args=(), prepare=None):
    """A `cirrus serve` of its own in a new temporary folder `name` (on its own PostgreSQL schema in the PostgreSQL
    run), answering before it is yielded, after `prepare(server)` if given; it must exit 0 when stopped."""
    root = tmp_path_factory.mktemp(name)
    server = CirrusServer(cirrus_binary(), root / "data", root / "cirrus.log", extra_args=extra_args)
    try:
        server.wait_until_ready()
        if prepare:
            prepare(server)
    except Exception:
        server.stop()
        raise
    yield server
    code = server.stop()
    assert code == 0, "cirrus exited with %s:\n%s" % (code, server.output())


def open_user_find(server):
    """Opens `_User`'s find permission to everyone on `server` (off by default): the class exists once someone signed
    up, then the schema API changes its permission."""
    signed_up = requests.post(server.url + "/1.1/users", timeout=10,
                              headers={"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"},
                              json={"username": "first_" + uuid.uuid4().hex[:8], "password": "pass-word-0"})
    assert signed_up.status_code == 201, signed_up.text
    reply = requests.put(server.url + "/1.1/schemas/_User", timeout=10,
                         headers={"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"},
                         json={"classLevelPermissions": {"find": {"*": True}}})
    assert reply.status_code == 200, reply.text


class NoAppRouter:
    """Stands in for leancloud.app_router.AppRouter: the tests must never ask the internet for hosts."""

    def __init__(self, *args, **kwargs):
        raise AssertionError("the LeanCloud SDK tried to use its AppRouter: LEANCLOUD_API_SERVER is not in effect")


INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

# Increments of a stored 64-bit integer, as (label, stored, amount, expected): exact while the result fits in 64 bits,
# the nearest double beyond (2^63 + 999 is 2^63 as a double, where an exact decimal would keep 999).
INT64_EDGE_INCREMENTS = [
    ("max minus one stays exact", INT64_MAX, -1, INT64_MAX - 1),
    ("min plus one stays exact", INT64_MIN, 1, INT64_MIN + 1),
    ("past max is the nearest double", INT64_MAX, 1000, float(2**63)),
    ("past min is the nearest double", INT64_MIN, -1, -float(2**63)),
]


# The tests log in with made-up github and weibo tokens, so the session's server trusts those two platforms as sent
# (`--auth-trust`); every other platform keeps the default: refused unless its provider's check is configured.
TRUSTED_PLATFORMS = ("--auth-trust", "github,weibo")


@pytest.fixture(scope="session")
def cirrus(tmp_path_factory):
    """The server for the whole session."""
    with running_server(tmp_path_factory, "cirrus", TRUSTED_PLATFORMS) as server:
        yield server


@pytest.fixture(scope="session")
def parse(cirrus):
    """parse_rest (ParsePy) pointed at the server, registered with the app key. Returns (connection, datatypes, user)
    modules."""
    return parse_sdk_at(cirrus.url)


def parse_sdk_at(url):
    """parse_rest (ParsePy) pointed at the server `url`: its API root is copied into several modules at import time.
    Returns (connection, datatypes, user) modules, registered with the app key."""
    import parse_rest.connection as connection
    import parse_rest.datatypes as datatypes
    import parse_rest.user as user

    root = url + "/1"
    connection.API_ROOT = datatypes.API_ROOT = user.API_ROOT = root
    connection.ParseBase.ENDPOINT_ROOT = root
    connection.ParseBatcher.ENDPOINT_ROOT = root + "/batch"
    user.User.ENDPOINT_ROOT = root + "/users"
    datatypes.File.ENDPOINT_ROOT = root + "/files"
    datatypes.Function.ENDPOINT_ROOT = root + "/functions"
    import parse_rest.installation as installation
    installation.Installation.ENDPOINT_ROOT = root + "/installations"
    installation.Push.ENDPOINT_ROOT = root + "/push"
    connection.register(APP_ID, APP_KEY)
    return connection, datatypes, user


@contextlib.contextmanager
def leancloud_sdk_at(url):
    """The `leancloud` module pointed at the server `url` (LEANCLOUD_API_SERVER, no AppRouter), initialised with the
    app key (not the master key); the previous server is restored afterwards."""
    previous = os.environ.get("LEANCLOUD_API_SERVER")
    os.environ["LEANCLOUD_API_SERVER"] = url
    import leancloud
    import leancloud.app_router
    import leancloud.client

    leancloud.app_router.AppRouter = NoAppRouter
    leancloud.client.AppRouter = NoAppRouter
    leancloud.client.app_router = None
    leancloud.init(APP_ID, app_key=APP_KEY, master_key=MASTER_KEY)
    leancloud.use_master_key(False)
    try:
        yield leancloud
    finally:
        if previous is None:
            os.environ.pop("LEANCLOUD_API_SERVER", None)
        else:
            os.environ["LEANCLOUD_API_SERVER"] = previous


@pytest.fixture(scope="session")
def leancloud_sdk(cirrus):
    """The `leancloud` module, initialised with the app key (not the master key) against the server."""
    with leancloud_sdk_at(cirrus.url) as leancloud:
        yield leancloud


@pytest.fixture
def leancloud(leancloud_sdk):
    """The SDK, with the app key in use again after a test that changed it."""
    leancloud_sdk.client.init(APP_ID, app_key=APP_KEY, master_key=MASTER_KEY)
    leancloud_sdk.use_master_key(False)
    yield leancloud_sdk
    leancloud_sdk.client.init(APP_ID, app_key=APP_KEY, master_key=MASTER_KEY)
    leancloud_sdk.use_master_key(False)


@contextlib.contextmanager
def recorded_responses(session, server_url):
    """Every response the `requests` session receives meanwhile, in order (each has `.request`); all of them must have
    gone to `server_url`'s LeanCloud paths."""
    responses = []

    def record(response, *args, **kwargs):
        responses.append(response)

    hooks = session.hooks["response"]
    hooks.append(record)
    try:
        yield responses
    finally:
        hooks.remove(record)
    strays = [r.request.url for r in responses if not r.request.url.startswith(server_url + "/1.1/")]
    assert not strays, "requests went elsewhere than the server: %s" % strays


@pytest.fixture
def wire(leancloud_sdk, cirrus):
    """Every response the SDK's HTTP session receives during the test, in order (each has `.request`)."""
    with recorded_responses(leancloud_sdk.client.session, cirrus.url) as responses:
        yield responses


_class_numbers = itertools.count(1)


@pytest.fixture
def class_name(request):
    """A class name no other test uses, so tests do not see each other's objects."""
    words = re.sub(r"[^A-Za-z0-9]+", " ", request.node.name).title().replace(" ", "")
    return "Py%s%d" % (words[:60], next(_class_numbers))


@pytest.fixture
def raw(cirrus):
    """Plain `requests` access to the server, for what the SDK cannot send."""

    class Raw:
        url = cirrus.url

        @staticmethod
        def request(method, path, headers=None, **kwargs):
            return requests.request(method, cirrus.url + path, headers=headers or {}, timeout=30, **kwargs)

    return Raw()


@pytest.fixture
def lc_users(leancloud, class_name):
    """Signs up new LeanCloud users through the SDK (`lc_users.sign_up(**fields)` returns the User, which the SDK
    makes current). Usernames derive from `class_name`; every password is `lc_users.password` unless given.
    There is no current user before the test or after it, so no test leaks its session into another."""

    class Users:
        password = "pass-word-1"
        numbers = itertools.count(1)

        @staticmethod
        def name():
            return "%s_u%d" % (class_name.lower(), next(Users.numbers))

        @staticmethod
        def sign_up(password=None, **fields):
            user = leancloud.User()
            for key, value in fields.items():
                user.set(key, value)
            user.sign_up(fields.get("username") or Users.name(), password or Users.password)
            return user

        @staticmethod
        def act_as(user):
            """Makes the SDK send `user`'s session (None: no session at all)."""
            leancloud.User.set_current(user)
            return user

    leancloud.User.set_current(None)
    yield Users
    leancloud.User.set_current(None)
    leancloud.use_master_key(False)


# --- Account flows (SMS codes and e-mail links): a second server, outbox readers and unique phone numbers. ---

import json  # noqa: E402

SANDBOX_NUMBER = "+8618699990000"
SANDBOX_CODE = "135790"
ACCOUNTS_DAILY_LIMIT = 5
ACCOUNTS_SERVER_ARGS = (
    "--sms-interval", "0",  # tests ask for several codes for one number
    "--sms-daily-limit", str(ACCOUNTS_DAILY_LIMIT),
    "--verify-email-on-sign-up",
    "--sms-sandbox", "%s=%s" % (SANDBOX_NUMBER, SANDBOX_CODE),
    "--app-name", "CirrusPy",
)


class Outbox:
    """The development outboxes of a server: `<data dir>/outbox/sms.jsonl` and `mail.jsonl`, one JSON object a
    line."""

    def __init__(self, data_dir):
        self.dir = Path(data_dir) / "outbox"

    @classmethod
    def of(cls, server):
        args = list(server.process.args)
        return cls(args[args.index("--data-dir") + 1])

    def _lines(self, name):
        path = self.dir / name
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def sms(self, number):
        """Every SMS sent to `number`, oldest first."""
        return [message for message in self._lines("sms.jsonl") if message.get("phoneNumber") == number]

    def last_sms(self, number):
        messages = self.sms(number)
        assert messages, "no SMS to %s in %s" % (number, self.dir / "sms.jsonl")
        return messages[-1]

    def code(self, number, purpose=None):
        """The code of the last SMS to `number` (checking its purpose when given)."""
        message = self.last_sms(number)
        if purpose is not None:
            assert message["purpose"] == purpose, message
        assert re.fullmatch(r"\d{6}", message["code"]), message
        return message["code"]

    def mails(self, address):
        """Every e-mail to `address`, oldest first (`to` may be one address or a list)."""
        def recipients(mail):
            to = mail.get("to")
            return to if isinstance(to, list) else [to]
        return [mail for mail in self._lines("mail.jsonl") if address in recipients(mail)]

    @staticmethod
    def link(mail, path):
        """The link in a mail's text whose path is `path` (e.g. `/auth/reset-password`)."""
        found = re.findall(r"https?://[^\s\"'<>]+", mail["text"])
        matching = [url for url in found if url.split("?")[0].endswith(path)]
        assert len(matching) == 1, (path, mail["text"])
        return matching[0]


_phone_numbers = itertools.count(1)


@pytest.fixture
def new_phone():
    """Makes phone numbers no other test uses: `new_phone()` gives +8618600xxxxxx, `new_phone("18600")` an
    11-digit number without a country code (as Bmob apps send them)."""
    return lambda prefix="+8618600": "%s%06d" % (prefix, next(_phone_numbers))


@pytest.fixture(scope="session")
def accounts_server(tmp_path_factory):
    """A second server for the account flows: no interval between messages, a daily limit of
    ACCOUNTS_DAILY_LIMIT, verification mails on sign-up and the sandbox number SANDBOX_NUMBER."""
    with running_server(tmp_path_factory, "cirrus-accounts", ACCOUNTS_SERVER_ARGS) as server:
        server.outbox = Outbox(server.data_dir)
        yield server


@pytest.fixture
def cirrus_outbox(cirrus):
    """The outboxes of the session-wide server (default limits: one message a minute per number or address)."""
    return Outbox.of(cirrus)


@pytest.fixture
def lc_accounts(leancloud, accounts_server, monkeypatch):
    """The LeanCloud SDK pointed at `accounts_server` for one test: the SDK reads LEANCLOUD_API_SERVER on every
    request, so it is changed for the test only and monkeypatch puts the session server back. There is no current
    user before or after. `.wire` records every response the SDK receives."""

    class Accounts:
        sdk = leancloud
        server = accounts_server
        outbox = accounts_server.outbox
        wire = []

    def record(response, *args, **kwargs):
        Accounts.wire.append(response)

    monkeypatch.setenv("LEANCLOUD_API_SERVER", accounts_server.url)
    leancloud.User.set_current(None)
    hooks = leancloud.client.session.hooks["response"]
    hooks.append(record)
    yield Accounts
    hooks.remove(record)
    leancloud.User.set_current(None)
    strays = [r.request.url for r in Accounts.wire if not r.request.url.startswith(accounts_server.url + "/")]
    assert not strays, "requests went elsewhere than the accounts server: %s" % strays


# --- Browser: headless Chromium driving the LeanCloud JavaScript SDK (Tests/python/browser). ---


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session, with the page server (another loopback origin than the server) that
    serves the vendored SDK. Fails, with what to install, when Chromium, chromedriver or selenium is missing."""
    from browser.harness import require_browser

    chromium = require_browser()
    yield chromium
    chromium.quit()


@pytest.fixture
def js_sdk(browser, cirrus):
    """A freshly loaded SDK page, `AV.init` with the app key against the session server and no current user:
    `js_sdk.run("<async function body using AV and args>", **args)` returns its result or raises JSError."""
    page = browser.open_sdk(cirrus.url, APP_ID, APP_KEY)
    yield page
    browser.driver.execute_script("try { window.localStorage.clear(); } catch (e) {}")
