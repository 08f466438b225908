"""ParsePy (parse_rest 0.3.20150629) against Cirrus's Parse dialect: sign-up, the old GET /login, /users/me, a user
saving itself and not another user, ACL'd objects between two users, and Parse's revocable sessions."""

import contextlib
import uuid

import pytest
import requests

from conftest import APP_ID, APP_KEY


@contextlib.contextmanager
def as_user(connection, token):
    """parse_rest's SessionToken never takes the token away again (a client bug), so later calls would still send it."""
    try:
        with connection.SessionToken(token):
            yield
    finally:
        connection.ACCESS_KEYS.pop("session_token", None)


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:10])


def test_signup_login_and_current_user(parse):
    connection, _, user_module = parse
    name = unique("pp")
    signed = user_module.User.signup(name, "pw-1", nickname="first")
    assert signed.objectId and signed.sessionToken.startswith("r:")
    logged = user_module.User.login(name, "pw-1")
    assert logged.objectId == signed.objectId
    assert logged.sessionToken != signed.sessionToken
    with as_user(connection, logged.sessionToken):
        me = user_module.User.current_user()
    assert me.username == name
    assert me.nickname == "first"
    with pytest.raises(Exception) as wrong:
        user_module.User.login(name, "nope")
    assert "101" in str(wrong.value) or "400" in str(wrong.value)


def test_user_saves_itself_but_not_another_user(parse):
    _, _, user_module = parse
    owner = user_module.User.signup(unique("owner"), "pw")
    owner.nickname = "changed"
    owner.save()
    # Finding users needs the master key (the _User find permission is closed), so fetch by id.
    fetched = user_module.User(**user_module.User.GET("/" + owner.objectId))
    assert fetched.nickname == "changed"
    other = user_module.User.signup(unique("other"), "pw")
    fetched.sessionToken = other.sessionToken
    fetched.nickname = "hijacked"
    with pytest.raises(Exception) as refused:
        fetched.save()
    assert "206" in str(refused.value) or "400" in str(refused.value)
    assert user_module.User.GET("/" + owner.objectId)["nickname"] == "changed"


def test_acl_between_two_users_and_revocable_sessions(parse, cirrus):
    connection, datatypes, user_module = parse
    owner = user_module.User.signup(unique("acl-owner"), "pw")
    other = user_module.User.signup(unique("acl-other"), "pw")

    class Diary(datatypes.Object):
        pass

    with as_user(connection, owner.sessionToken):
        entry = Diary(text="secret", ACL={owner.objectId: {"read": True, "write": True}})
        entry.save()
        assert [d.text for d in Diary.Query.filter(objectId=entry.objectId)] == ["secret"]
    with as_user(connection, other.sessionToken):
        assert list(Diary.Query.filter(objectId=entry.objectId)) == []
    assert list(Diary.Query.filter(objectId=entry.objectId)) == []

    headers = {"X-Parse-Application-Id": APP_ID, "X-Parse-REST-API-Key": APP_KEY, "X-Parse-Session-Token": owner.sessionToken}
    second = user_module.User.login(owner.username, "pw").sessionToken
    sessions = requests.get(cirrus.url + "/1/sessions", headers=headers, timeout=10).json()["results"]
    assert {s["sessionToken"] for s in sessions} == {owner.sessionToken, second}
    assert requests.post(cirrus.url + "/1/logout", headers=headers, timeout=10).status_code == 200
    with pytest.raises(Exception):
        with as_user(connection, owner.sessionToken):
            user_module.User.current_user()
    with as_user(connection, second):
        assert user_module.User.current_user().objectId == owner.objectId
