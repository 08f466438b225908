"""Server time, errors surfacing as LeanCloudError, and what only a raw client can send (unsigned, badly signed)."""

import datetime
import hashlib
import time

import pytest

from conftest import APP_ID, APP_KEY, MASTER_KEY


def sign(key, timestamp=None, master=False):
    timestamp = str(timestamp if timestamp is not None else int(time.time() * 1000))
    value = hashlib.md5((timestamp + key).encode()).hexdigest() + "," + timestamp
    return value + ",master" if master else value


def test_get_server_time_needs_no_headers(leancloud, wire):
    now = datetime.datetime.now(datetime.timezone.utc)
    server_time = leancloud.client.get_server_time()
    assert server_time.tzinfo is not None
    assert abs(server_time - now) < datetime.timedelta(minutes=5)
    sent = wire[-1].request
    assert sent.path_url == "/1.1/date"
    assert not [name for name in sent.headers if name.lower().startswith("x-lc")]


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"bad-key": 1}, 105),
        ({"_private": 1}, 105),
        ({"nested": {"a.b": 1}}, 121),
        ({"nested": {"$set": 1}}, 121),
        ({"owner": {"__type": "Pointer", "className": "Owner"}}, 106),
        ({"place": {"__type": "GeoPoint", "latitude": 91, "longitude": 0}}, 302),
        ({"big": "x" * 140_000}, 116),
    ],
)
def test_invalid_objects_raise_leancloud_error_with_the_documented_code(leancloud, class_name, fields, code):
    Thing = leancloud.Object.extend(class_name)
    thing = Thing()
    thing.set(fields)  # the dict form sends values as given
    with pytest.raises(leancloud.LeanCloudError) as error:
        thing.save()
    assert error.value.code == code
    assert error.value.error


def test_invalid_class_name_raises_103(leancloud):
    with pytest.raises(leancloud.LeanCloudError) as error:
        leancloud.Object.extend("9Lives")(name="x").save()
    assert error.value.code == 103


def test_updating_a_missing_object_raises(leancloud, class_name):
    Thing = leancloud.Object.extend(class_name)
    Thing(title="class exists").save()
    missing = Thing.create_without_data("0" * 24)
    missing.set("title", "x")
    with pytest.raises(leancloud.LeanCloudError) as error:
        missing.save()
    assert error.value.code == 1  # LeanCloud: "Could not find object by id ..." (recorded traffic)


def test_a_wrong_app_key_raises_401(leancloud, class_name):
    leancloud.init(APP_ID, app_key="not-the-app-key")
    with pytest.raises(leancloud.LeanCloudError) as error:
        leancloud.Object.extend(class_name)(title="x").save()
    assert error.value.code == 401


def test_the_master_key_signs_when_asked(leancloud, class_name, wire):
    leancloud.use_master_key(True)
    thing = leancloud.Object.extend(class_name)(title="as master")
    thing.save()
    assert wire[-1].request.headers["X-LC-Sign"].endswith(",master")
    assert wire[-1].status_code == 201


def test_an_unsigned_request_gets_401_json(raw, class_name):
    reply = raw.request("POST", "/1.1/classes/" + class_name, json={"a": 1}, headers={"X-LC-Id": APP_ID})
    assert reply.status_code == 401
    assert reply.json()["code"] == 401
    assert raw.request("GET", "/1.1/classes/" + class_name).status_code == 401


@pytest.mark.parametrize(
    "headers",
    [
        {"X-LC-Id": APP_ID, "X-LC-Sign": sign("wrong-key")},
        {"X-LC-Id": APP_ID, "X-LC-Sign": sign(APP_KEY, master=True)},
        {"X-LC-Id": APP_ID, "X-LC-Sign": sign(APP_KEY).split(",")[0] + ",1"},
        {"X-LC-Id": APP_ID, "X-LC-Sign": "garbage"},
        {"X-LC-Id": "other-app", "X-LC-Sign": sign(APP_KEY)},
    ],
    ids=["wrong key", "app key claiming master", "signature of another timestamp", "malformed", "wrong app id"],
)
def test_a_wrong_signature_gets_401(raw, class_name, headers):
    reply = raw.request("POST", "/1.1/classes/" + class_name, json={"a": 1}, headers=headers)
    assert reply.status_code == 401
    assert reply.json()["code"] == 401


@pytest.mark.parametrize(
    "headers",
    [
        {"X-LC-Id": APP_ID, "X-LC-Sign": sign(APP_KEY)},
        {"X-LC-Id": APP_ID, "X-LC-Sign": sign(APP_KEY, timestamp=1_000_000_000_000)},
        {"X-LC-Id": APP_ID, "X-LC-Sign": sign(MASTER_KEY, master=True)},
        {"X-LC-Id": APP_ID, "X-LC-Key": APP_KEY},
        {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master"},
    ],
    ids=["app key", "old timestamp", "master key", "plain app key", "plain master key"],
)
def test_a_right_signature_is_accepted_whatever_its_age(raw, class_name, headers):
    reply = raw.request("POST", "/1.1/classes/" + class_name, json={"a": 1}, headers=headers)
    assert reply.status_code == 201
    assert len(reply.json()["objectId"]) == 24


def test_malformed_json_gets_107(raw, class_name):
    headers = {"X-LC-Id": APP_ID, "X-LC-Sign": sign(APP_KEY), "Content-Type": "application/json"}
    reply = raw.request("POST", "/1.1/classes/" + class_name, data="{not json", headers=headers)
    assert reply.json()["code"] == 107
    reply = raw.request("POST", "/1.1/classes/" + class_name, data="[1, 2]", headers=headers)
    assert reply.json()["code"] == 107


def test_unknown_paths_answer_json(raw):
    reply = raw.request("GET", "/1.1/no-such-endpoint", headers={"X-LC-Id": APP_ID, "X-LC-Sign": sign(APP_KEY)})
    assert reply.status_code == 404
    assert "code" in reply.json()
