"""Third-party log-in, class permissions and the schema API through real clients: the LeanCloud Python SDK's
login_with / link_with / unlink_from, SDK queries under class permissions set by the schema API, and ParsePy's drop."""

import uuid

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY

MASTER = {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"}


def test_login_with_authdata_then_link_and_unlink(leancloud, lc_users):
    uid = uuid.uuid4().hex
    first = leancloud.User.login_with("github", {"uid": uid, "access_token": "t1"})
    assert first.id and first.get_session_token()
    assert len(first.get("username")) == 25
    again = leancloud.User.login_with("github", {"uid": uid, "access_token": "t2"})
    assert again.id == first.id
    assert again.get_session_token() == first.get_session_token()

    lc_users.act_as(again)
    again.link_with("weibo", {"uid": "w-" + uid, "access_token": "w"})
    me = leancloud.User.become(again.get_session_token())
    assert set(me.get("authData")) >= {"github", "weibo"}
    again.unlink_from("weibo")
    me = leancloud.User.become(again.get_session_token())
    assert "weibo" not in (me.get("authData") or {})
    assert "github" in me.get("authData")


def test_login_with_a_platform_the_server_does_not_verify_is_refused_and_takes_over_no_one(leancloud, lc_users, cirrus):
    victim = lc_users.sign_up()
    openid = "victim-" + uuid.uuid4().hex
    linked = requests.put(cirrus.url + "/1.1/users/" + victim.id, headers=MASTER, timeout=10,
                          json={"authData": {"weixin": {"openid": openid, "access_token": "real"}}})
    assert linked.status_code == 200, linked.text
    lc_users.act_as(None)
    with pytest.raises(leancloud.LeanCloudError) as refused:
        leancloud.User.login_with("weixin", {"openid": openid, "access_token": "made-up"})
    assert refused.value.code == 252
    assert leancloud.User.get_current() is None
    leancloud.use_master_key(True)
    stored = leancloud.Query("_User").get(victim.id)
    leancloud.use_master_key(False)
    assert stored.get("authData") == {"weixin": {"openid": openid, "access_token": "real"}}


def test_sdk_queries_follow_class_permissions_set_through_the_schema_api(leancloud, lc_users, cirrus, class_name):
    reply = requests.post(cirrus.url + "/1.1/schemas/" + class_name, headers=MASTER, timeout=10, json={
        "fields": {"n": {"type": "Number"}}, "classLevelPermissions": {"find": {"onlySignInUsers": True}, "create": {"*": True}},
    })
    assert reply.status_code == 201, reply.text
    leancloud.Object.extend(class_name)(n=1).save()
    with pytest.raises(leancloud.LeanCloudError) as denied:
        leancloud.Query(class_name).find()
    assert denied.value.code == 403
    lc_users.sign_up()
    assert [row.get("n") for row in leancloud.Query(class_name).find()] == [1]
    schema = requests.get(cirrus.url + "/1.1/schemas/" + class_name, headers=MASTER, timeout=10).json()
    assert schema["n"] == {"type": "Number"}


def test_parsepy_drops_an_empty_class_through_the_schema_api(cirrus, parse):
    connection, datatypes, _ = parse
    name = "Drop" + uuid.uuid4().hex[:8]
    Droppable = type(name, (datatypes.Object,), {})
    connection.register(APP_ID, APP_KEY, master_key=MASTER_KEY)
    try:
        thing = Droppable(n=1)
        thing.save()
        with pytest.raises(Exception) as not_empty:
            Droppable.drop()
        assert "255" in str(not_empty.value)
        thing.delete()
        Droppable.drop()
        assert requests.get(cirrus.url + "/1.1/schemas/" + name, headers=MASTER, timeout=10).status_code == 404
    finally:
        connection.register(APP_ID, APP_KEY)
