"""`/metrics` of a live `cirrus serve --metrics-token`, scraped over HTTP as Prometheus does, after the LeanCloud SDK
saved, fetched and queried objects: the counters count what was done, the latencies and the store's operations are
there, a scrape without the token learns nothing, and every reply and log line carries its request id."""

import re

import pytest
import requests

from conftest import APP_ID, APP_KEY, leancloud_sdk_at, running_server

TOKEN = "scrape-token-0123456789"


def samples(text):
    """{(name, frozenset(labels)): value} of a Prometheus text exposition."""
    found = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$', line)
        assert match, "not a sample line: %r" % line
        labels = frozenset(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(3) or ""))
        found[(match.group(1), labels)] = float(match.group(4))
    return found


def value(found, name, **labels):
    wanted = set(labels.items())
    return sum(v for (n, l), v in found.items() if n == name and wanted <= set(l))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, "metrics", extra_args=("--metrics-token", TOKEN)) as server:
        yield server


def scrape(server, token=TOKEN):
    headers = {"Authorization": "Bearer " + token} if token else {}
    return requests.get(server.url + "/metrics", headers=headers, timeout=10)


def test_a_scrape_needs_the_token(server):
    for token in (None, "wrong-token"):
        reply = scrape(server, token)
        assert reply.status_code == 401
        assert "cirrus_" not in reply.text
    assert scrape(server).status_code == 200


def test_the_counters_count_what_the_sdk_did(server):
    before = samples(scrape(server).text)
    with leancloud_sdk_at(server.url) as leancloud:
        Todo = leancloud.Object.extend("MetricsTodo")
        saved = []
        for n in range(3):
            todo = Todo()
            todo.set("n", n)
            todo.save()
            saved.append(todo)
        for todo in saved:
            Todo.create_without_data(todo.id).fetch()
        assert len(leancloud.Query(Todo).find()) == 3
        # LeanCloud answers a get of a missing object with 200 and {}: the SDK's object stays empty.
        assert leancloud.Query("MetricsTodo").get("0123456789abcdef01234567").get("n") is None
    after = samples(scrape(server).text)

    def counted(**labels):
        return value(after, "cirrus_http_requests_total", **labels) - value(before, "cirrus_http_requests_total", **labels)

    assert counted(route="classes/:className", method="POST", dialect="leancloud", status="201") == 3
    assert counted(route="classes/:className/:objectId", method="GET", dialect="leancloud", status="200") >= 3
    assert counted(route="classes/:className", method="GET", dialect="leancloud", status="200") >= 1
    latency = value(after, "cirrus_http_request_duration_seconds_count", route="classes/:className", method="POST")
    assert latency >= 3
    assert value(after, "cirrus_store_operation_duration_seconds_count", operation="transaction") >= 3
    assert value(after, "cirrus_store_operation_duration_seconds_count", operation="lookup") >= 3
    assert value(after, "cirrus_store_operation_duration_seconds_count", operation="read") >= 1
    assert value(after, "cirrus_http_connections") >= 1
    assert ("cirrus_change_log_sequence", frozenset()) in after
    assert value(after, "cirrus_change_log_sequence") >= value(before, "cirrus_change_log_sequence") + 3


def test_errors_are_counted_with_their_dialect_code(server):
    before = samples(scrape(server).text)
    reply = requests.get(server.url + "/1.1/classes/Nope/x", headers={"X-LC-Id": APP_ID, "X-LC-Key": "wrong"}, timeout=10)
    assert reply.status_code == 401
    after = samples(scrape(server).text)
    labels = dict(route="classes/:className/:objectId", status="401", code="401")
    assert value(after, "cirrus_http_requests_total", **labels) - value(before, "cirrus_http_requests_total", **labels) == 1


def test_replies_carry_their_request_id_and_log_lines_too(server):
    headers = {"X-LC-Id": APP_ID, "X-LC-Key": APP_KEY}
    given = requests.get(server.url + "/1.1/classes/Anything", headers={**headers, "X-Request-Id": "trace-42"}, timeout=10)
    assert given.headers["X-Request-Id"] == "trace-42"
    made = requests.get(server.url + "/1.1/date", timeout=10).headers["X-Request-Id"]
    other = requests.get(server.url + "/1.1/date", timeout=10).headers["X-Request-Id"]
    assert made and other and made != other
    refused = requests.get(server.url + "/1.1/date", headers={"X-Request-Id": "x" * 200}, timeout=10).headers["X-Request-Id"]
    assert refused != "x" * 200
    # A request that logs (the console logs a refused sign-in as a warning) carries its id in the line.
    refused = requests.post(server.url + "/dashboard/session", json={"masterKey": "not-the-master-key"},
                            headers={"X-Request-Id": "trace-log-7"}, timeout=10)
    assert refused.status_code == 401
    lines = [line for line in server.output().splitlines() if "dashboard sign-in refused" in line]
    assert any("request=trace-log-7" in line for line in lines), lines
