"""Bmob's Python SDK (bmobpy 1.10.1) users against Cirrus: sign-up, log-in, checkSession, user updates with and
without the session, and updatePassword."""

import itertools
import re

import pytest
from bmobpy.bmob import Bmob

from conftest import APP_ID, APP_KEY

BMOB_DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
TOKEN = re.compile(r"[0-9a-z]{25}")
PASSWORD = "pw12345"  # bmobpy pastes the password into the log-in URL unencoded: keep it URL-safe

_numbers = itertools.count(1)


@pytest.fixture
def new_bmob(cirrus):
    """Makes fresh Bmob clients (each keeps its own X-Bmob-Session-Token once logged in)."""

    def make():
        client = Bmob(APP_ID, APP_KEY)
        client.resetDomain(cirrus.url)
        return client

    return make


@pytest.fixture
def bmob(new_bmob):
    return new_bmob()


@pytest.fixture
def username(class_name):
    return lambda: "%s_b%d" % (class_name.lower(), next(_numbers))


@pytest.fixture
def signed_up(bmob, username):
    """A user signed up and logged in on `bmob`: (name, signUp reply)."""
    name = username()
    reply = bmob.signUp(name, PASSWORD)
    assert reply is not None, bmob.getError()
    assert bmob.login(name, PASSWORD) is not None, bmob.getError()
    return name, reply


def test_sign_up(bmob, username):
    name = username()
    reply = bmob.signUp(name, PASSWORD)
    assert reply is not None, bmob.getError()
    assert set(reply) == {"createdAt", "objectId", "sessionToken"}
    assert BMOB_DATE.fullmatch(reply.createdAt)
    assert re.fullmatch(r"[0-9A-Za-z]{10}", reply.objectId)
    assert TOKEN.fullmatch(reply.sessionToken)
    assert "X-Bmob-Session-Token" not in bmob.headers  # signUp does not log the client in

    again = bmob.signUp(name, "other")
    assert again is None
    assert bmob.getError()["code"] == 202


def test_login_by_username(bmob, username):
    name = username()
    created = bmob.signUp(name, PASSWORD)
    user = bmob.login(name, PASSWORD)
    assert user is not None, bmob.getError()
    assert user.objectId == created.objectId
    assert user.username == name
    assert user.sessionToken == created.sessionToken
    assert "password" not in user
    assert BMOB_DATE.fullmatch(user.createdAt) and BMOB_DATE.fullmatch(user.updatedAt)
    assert bmob.headers["X-Bmob-Session-Token"] == created.sessionToken


def test_login_failures(new_bmob, username):
    bmob = new_bmob()
    name = username()
    bmob.signUp(name, PASSWORD)
    assert bmob.login(name, "wrong1") is None
    assert bmob.getError()["code"] == 101
    assert bmob.login(name + "-nobody", PASSWORD) is None
    assert bmob.getError()["code"] == 101
    assert "X-Bmob-Session-Token" not in bmob.headers


def test_check_session(new_bmob, bmob, signed_up):
    name, created = signed_up
    assert bmob.checkSession(created.objectId) is True
    assert bmob.getError()["error"] is None

    anonymous = new_bmob()
    assert not anonymous.checkSession(created.objectId)
    assert anonymous.getError()["code"] == 211

    other = new_bmob()
    other_name = "%s-other" % name
    other.signUp(other_name, PASSWORD)
    assert other.login(other_name, PASSWORD) is not None
    assert not other.checkSession(created.objectId)  # someone else's session
    assert other.getError()["code"] == 211

    forged = new_bmob().setUserSession("f" * 25)
    assert not forged.checkSession(created.objectId)
    assert forged.getError()["code"] == 211


def test_set_user_session_restores_a_login(new_bmob, signed_up):
    name, created = signed_up
    restored = new_bmob().setUserSession(created.sessionToken)
    assert restored.checkSession(created.objectId) is True
    assert restored.update("_User", created.objectId, {"city": "Hangzhou"}) is True
    assert restored.getObject("_User", created.objectId).city == "Hangzhou"


def test_a_user_updates_itself_only_with_its_session(new_bmob, bmob, signed_up, raw):
    name, created = signed_up
    assert bmob.update("_User", created.objectId, {"nick": "mine", "age": 30}) is True
    user = new_bmob().getObject("_User", created.objectId)
    assert (user.nick, user.age, user.username) == ("mine", 30, name)
    assert "password" not in user and "sessionToken" not in user  # read by a client without the session

    anonymous = new_bmob()
    assert anonymous.update("_User", created.objectId, {"nick": "hacked"}) is False
    assert anonymous.getError()["code"] == 206

    other = new_bmob()
    other.signUp(name + "-other", PASSWORD)
    other.login(name + "-other", PASSWORD)
    assert other.update("_User", created.objectId, {"nick": "hacked"}) is False
    assert other.getError()["code"] == 206
    assert new_bmob().getObject("_User", created.objectId).nick == "mine"

    # bmobpy has no call for Bmob's own /1/users/<objectId> path: the same rule there, sent raw.
    headers = dict(bmob.headers)
    response = raw.request("PUT", "/1/users/" + created.objectId, headers=headers, json={"nick": "via users"})
    assert response.status_code == 200 and BMOB_DATE.fullmatch(response.json()["updatedAt"])
    del headers["X-Bmob-Session-Token"]
    response = raw.request("PUT", "/1/users/" + created.objectId, headers=headers, json={"nick": "no session"})
    assert response.json()["code"] == 206
    assert new_bmob().getObject("_User", created.objectId).nick == "via users"


def test_login_by_email_and_phone_number_as_username(new_bmob, bmob, signed_up):
    name, created = signed_up
    email = name + "@example.com"
    phone = "139%08d" % (next(_numbers) * 7919 % 100000000)
    assert bmob.update("_User", created.objectId, {"email": email, "mobilePhoneNumber": phone}) is True
    for login_name in (email, phone):
        client = new_bmob()
        user = client.login(login_name, PASSWORD)
        assert user is not None, (login_name, client.getError())
        assert user.objectId == created.objectId and user.username == name
        assert user.sessionToken == created.sessionToken


def test_update_password_then_log_in_with_the_new_one(new_bmob, bmob, signed_up):
    name, created = signed_up
    assert bmob.updatePassword(created.objectId, "not-it", "newpw678") is False
    assert bmob.getError()["code"] == 210

    assert bmob.updatePassword(created.objectId, PASSWORD, "newpw678") is True
    assert bmob.getError()["error"] is None

    old = new_bmob()
    assert old.login(name, PASSWORD) is None
    assert old.getError()["code"] == 101
    fresh = new_bmob()
    user = fresh.login(name, "newpw678")
    assert user is not None, fresh.getError()
    assert user.objectId == created.objectId
    assert TOKEN.fullmatch(user.sessionToken)
    assert fresh.checkSession(created.objectId) is True


def test_update_password_needs_the_users_session(new_bmob, signed_up):
    name, created = signed_up
    anonymous = new_bmob()
    assert anonymous.updatePassword(created.objectId, PASSWORD, "stolen99") is False
    assert anonymous.getError()["code"] is not None
    still = new_bmob()
    assert still.login(name, PASSWORD) is not None, still.getError()


def test_sign_up_status_and_bmob_error_shape(raw, bmob, username):
    headers = dict(bmob.headers)
    name = username()
    created = raw.request("POST", "/1/users", headers=headers, json={"username": name, "password": PASSWORD})
    assert created.status_code == 201
    assert set(created.json()) == {"createdAt", "objectId", "sessionToken"}
    empty = raw.request("POST", "/1/users", headers=headers, json={"username": username(), "password": ""})
    assert empty.status_code >= 400 and set(empty.json()) == {"code", "error"}
    assert empty.json()["code"] == 108  # Bmob's own code, "username and password required" (LeanCloud's is 218)
