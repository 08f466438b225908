"""Installations (`_Installation`) through the LeanCloud Python SDK's `Installation`, ParsePy's `Installation` and raw
requests in each dialect: a save is an upsert by objectId, installationId or deviceToken (one installation per device,
also when many saves race), Parse's rules (135, 136, lower-cased 64-hex ids), channels with array operations, and
`_Installation`'s default permissions (find and delete for the master key only).
"""

import concurrent.futures
import uuid

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY, leancloud_sdk_at, parse_sdk_at


def lc_headers(master=False):
    return {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master" if master else APP_KEY, "Content-Type": "application/json"}


def parse_headers(master=False):
    result = {"X-Parse-Application-Id": APP_ID, "Content-Type": "application/json"}
    result["X-Parse-Master-Key" if master else "X-Parse-REST-API-Key"] = MASTER_KEY if master else APP_KEY
    return result


def token():
    return uuid.uuid4().hex + uuid.uuid4().hex


def stored(cirrus, objectId):
    return requests.get(cirrus.url + "/1.1/installations/" + objectId, headers=lc_headers(master=True), timeout=10).json()


def installations_with(cirrus, **where):
    import json
    response = requests.get(cirrus.url + "/1.1/installations", headers=lc_headers(master=True),
                            params={"where": json.dumps(where)}, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["results"]


def test_the_leancloud_sdk_registers_a_device_once_and_its_next_launch_updates_it(cirrus):
    device = token().upper()
    with leancloud_sdk_at(cirrus.url) as leancloud:
        first = leancloud.Installation()
        first.set("deviceType", "ios")
        first.set("deviceToken", device)
        first.set("channels", ["news"])
        first.save()
        assert first.id
        # The next launch: a new object for the same device, as the SDKs send it.
        again = leancloud.Installation()
        again.set("deviceType", "ios")
        again.set("deviceToken", device)
        again.set("badge", 3)
        again.save()
        assert again.id == first.id
        again.add_unique("channels", "sports")
        again.save()
        again.remove("channels", "news")
        again.save()
    saved = stored(cirrus, first.id)
    assert saved["deviceToken"] == device.lower() and saved["badge"] == 3 and saved["channels"] == ["sports"]
    assert len(installations_with(cirrus, deviceToken=device.lower())) == 1


def test_parsepy_saves_an_android_installation_by_installation_id_and_updates_it(cirrus):
    installation_id = str(uuid.uuid4())
    _, _, _ = parse_sdk_at(cirrus.url)
    from parse_rest.installation import Installation
    created = Installation(deviceType="android", installationId=installation_id, deviceToken="fcm:" + uuid.uuid4().hex, channels=["a"])
    created.save()
    replay = requests.post(cirrus.url + "/parse/installations", headers=parse_headers(),
                           json={"deviceType": "android", "installationId": installation_id, "channels": ["a", "b"]}, timeout=10)
    assert replay.status_code == 200 and replay.json()["objectId"] == created.objectId
    assert stored(cirrus, created.objectId)["channels"] == ["a", "b"]


@pytest.mark.parametrize("body, code", [
    ({"deviceType": "ios"}, 135),
    ({"deviceToken": "ab" * 32}, 135),
    ({"deviceType": "ios", "deviceToken": "has space"}, 107),
    ({"deviceType": "ios", "installationId": 12}, 107),
])
def test_an_installation_without_its_ids_or_type_or_with_a_malformed_token_is_refused_in_parses_codes(cirrus, body, code):
    response = requests.post(cirrus.url + "/parse/installations", headers=parse_headers(), json=body, timeout=10)
    assert response.status_code == 400
    assert response.json()["code"] in (code, 1, 105)
    if code == 135:
        assert response.json()["code"] == 135


def test_an_update_by_id_may_not_change_the_device_type_or_ids(cirrus):
    made = requests.post(cirrus.url + "/parse/installations", headers=parse_headers(),
                         json={"deviceType": "ios", "deviceToken": token()}, timeout=10).json()
    for change in ({"deviceType": "android"}, {"deviceToken": token()}):
        refused = requests.put(cirrus.url + "/parse/installations/" + made["objectId"], headers=parse_headers(), json=change, timeout=10)
        assert refused.status_code == 400 and refused.json()["code"] == 136
    fine = requests.put(cirrus.url + "/1.1/installations/" + made["objectId"], headers=lc_headers(), json={"badge": 1}, timeout=10)
    assert fine.status_code == 200
    assert stored(cirrus, made["objectId"])["deviceType"] == "ios"


def test_clients_may_not_list_or_delete_installations_but_the_master_key_may(cirrus):
    made = requests.post(cirrus.url + "/1.1/installations", headers=lc_headers(),
                         json={"deviceType": "ios", "deviceToken": token()}, timeout=10)
    assert made.status_code == 201 and made.headers["Location"].endswith("/classes/_Installation/" + made.json()["objectId"])
    objectId = made.json()["objectId"]
    assert requests.get(cirrus.url + "/1.1/installations", headers=lc_headers(), timeout=10).status_code in (400, 403)
    assert requests.get(cirrus.url + "/1.1/installations/" + objectId, headers=lc_headers(), timeout=10).json()["objectId"] == objectId
    assert requests.delete(cirrus.url + "/1.1/installations/" + objectId, headers=lc_headers(), timeout=10).status_code in (400, 403)
    assert requests.delete(cirrus.url + "/1.1/installations/" + objectId, headers=lc_headers(master=True), timeout=10).status_code == 200
    assert stored(cirrus, objectId) == {}


def test_racing_first_saves_of_one_device_leave_one_installation(cirrus):
    device = token()

    def save(index):
        return requests.post(cirrus.url + "/1.1/installations", headers=lc_headers(),
                             json={"deviceType": "ios", "deviceToken": device, "badge": index}, timeout=30)

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(save, range(8)))
    assert all(reply.status_code in (200, 201) for reply in replies), [reply.text for reply in replies]
    assert len({reply.json()["objectId"] for reply in replies}) == 1
    assert [reply.status_code for reply in replies].count(201) == 1
    assert len(installations_with(cirrus, deviceToken=device)) == 1


def test_a_device_that_changes_its_installation_id_keeps_one_installation_for_its_token(cirrus):
    device = token()
    first = requests.post(cirrus.url + "/1.1/installations", headers=lc_headers(),
                          json={"deviceType": "ios", "deviceToken": device, "installationId": str(uuid.uuid4())}, timeout=10).json()
    # A reinstall: a new installationId, the same token; the save finds the token's installation.
    second = requests.post(cirrus.url + "/1.1/installations", headers=lc_headers(),
                           json={"deviceType": "ios", "deviceToken": device, "channels": ["c"]}, timeout=10)
    assert second.status_code == 200 and second.json()["objectId"] == first["objectId"]
    assert len(installations_with(cirrus, deviceToken=device)) == 1
