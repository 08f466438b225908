"""Bmob's Python SDK (bmobpy 1.10.1) and the account flows: requestSmsCode (`smsId`), verifySmsCode, the one-step
sign-up or log-in by code, log-in by code, resetPasswordBySmsCode, the password reset mail and the send limit.

Runs against `accounts_server` (conftest: no interval between messages, so one number can get several codes); the
limit test uses the session-wide server with its default interval. Codes are read from the server's outbox."""

import re

import pytest
import requests
from bmobpy.bmob import Bmob

from conftest import APP_ID, APP_KEY

BMOB_DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
TOKEN = re.compile(r"[0-9a-z]{25}")
PASSWORD = "pw12345"  # bmobpy pastes the password into the log-in URL unencoded: keep it URL-safe


def wrong(code):
    return "%06d" % ((int(code) + 1) % 1000000)


def client_for(server, token=None):
    client = Bmob(APP_ID, APP_KEY)
    client.resetDomain(server.url)
    if token:
        client.setUserSession(token)
    return client


@pytest.fixture
def new_bmob(accounts_server):
    return lambda token=None: client_for(accounts_server, token)


@pytest.fixture
def bmob(new_bmob):
    return new_bmob()


@pytest.fixture
def outbox(accounts_server):
    return accounts_server.outbox


@pytest.fixture
def bmob_raw(accounts_server):
    """Plain requests with bmobpy's own headers, for what bmobpy cannot send."""

    def send(client, method, path, **kwargs):
        return requests.request(method, accounts_server.url + path, headers=dict(client.headers), timeout=30, **kwargs)

    return send


@pytest.fixture
def user_with_phone(new_bmob, class_name, new_phone):
    """A user signed up with a password and given a phone number (bmobpy's signUp drops extra fields, so the number
    is set by an update with the user's session): (name, objectId, number, logged-in client)."""
    client = new_bmob()
    name, number = class_name.lower(), new_phone("18600")
    created = client.signUp(name, PASSWORD)
    assert created is not None, client.getError()
    assert client.login(name, PASSWORD) is not None, client.getError()
    assert client.update("_User", created.objectId, {"mobilePhoneNumber": number}) is True, client.getError()
    return name, created.objectId, number, client


def test_request_and_verify_an_sms_code(bmob, outbox, new_phone):
    number = new_phone("18600")
    reply = bmob.requestSMSCode(number)  # sends {"mobilePhoneNumber": number, "template": ""}
    assert reply is not None, bmob.getError()
    assert set(reply) == {"smsId"}
    assert isinstance(reply.smsId, int) and reply.smsId > 0
    [message] = outbox.sms(number)
    assert message["purpose"] == "sms" and message["channel"] == "sms"
    code = message["code"]
    assert message["text"].startswith("[CirrusPy] Your code for verification is %s." % code)

    assert bmob.verifySmsCode(number, wrong(code)) is False
    assert bmob.getError()["code"] == 207
    assert bmob.verifySmsCode(number, code) is True
    assert bmob.getError()["error"] is None
    assert bmob.verifySmsCode(number, code) is False  # single use
    assert bmob.getError()["code"] == 207

    # a second request gets another message with its own smsId (no interval on this server)
    again = bmob.requestSMSCode(number)
    assert again is not None and again.smsId != reply.smsId
    assert len(outbox.sms(number)) == 2


def test_bad_numbers(bmob, new_phone):
    assert bmob.requestSMSCode("12ab") is None
    assert bmob.getError()["code"] == 107
    assert bmob.requestSMSCode("") is None
    assert bmob.getError()["code"] == 1


def test_one_step_sign_up_and_log_in_by_code(new_bmob, bmob, bmob_raw, outbox, new_phone):
    number = new_phone("18600")
    assert bmob.requestSMSCode(number) is not None
    code = outbox.code(number, purpose="sms")

    # bmobpy's loginBySMSCode calls self._signUp, which does not exist (only the name-mangled __signUp does):
    # the client breaks before sending anything, so the one-step call goes raw as POST /1/users.
    with pytest.raises(AttributeError):
        bmob.loginBySMSCode(number, code, {})
    assert bmob_raw(bmob, "POST", "/1/users", json={"mobilePhoneNumber": number, "smsCode": wrong(code)}) \
        .json()["code"] == 207

    created = bmob_raw(bmob, "POST", "/1/users", json={"mobilePhoneNumber": number, "smsCode": code})
    assert created.status_code == 201, created.text
    user = created.json()
    assert created.headers["Location"] == "/1/users/" + user["objectId"]
    assert re.fullmatch(r"[0-9A-Za-z]{10}", user["objectId"])
    assert user["username"] == number and user["mobilePhoneNumber"] == number
    assert user["mobilePhoneVerified"] is True
    assert "password" not in user and "smsCode" not in user
    assert TOKEN.fullmatch(user["sessionToken"])
    assert BMOB_DATE.fullmatch(user["createdAt"])
    assert new_bmob(user["sessionToken"]).checkSession(user["objectId"]) is True

    used = bmob_raw(bmob, "POST", "/1/users", json={"mobilePhoneNumber": number, "smsCode": code})
    assert used.status_code >= 400 and used.json()["code"] == 207

    assert bmob.requestSMSCode(number) is not None
    again = bmob_raw(bmob, "POST", "/1/users", json={"mobilePhoneNumber": number, "smsCode": outbox.code(number)})
    assert again.status_code == 200, again.text
    assert again.json()["objectId"] == user["objectId"]
    assert again.json()["sessionToken"] == user["sessionToken"]
    assert new_bmob().getObject("_User", user["objectId"]).username == number


def test_log_in_by_code(new_bmob, bmob, bmob_raw, outbox, user_with_phone, new_phone):
    name, object_id, number, _ = user_with_phone
    assert bmob.requestSMSCode(number) is not None
    code = outbox.code(number)
    # bmobpy logs in only by name and password (GET /1/login): the code log-in is sent raw
    refused = bmob_raw(bmob, "POST", "/1/login", json={"mobilePhoneNumber": number, "smsCode": wrong(code)})
    assert refused.json()["code"] == 207
    login = bmob_raw(bmob, "POST", "/1/login", json={"mobilePhoneNumber": number, "smsCode": code})
    assert login.status_code == 200, login.text
    user = login.json()
    assert user["objectId"] == object_id and user["username"] == name
    assert user["mobilePhoneVerified"] is True
    assert new_bmob(user["sessionToken"]).checkSession(object_id) is True
    assert bmob_raw(bmob, "POST", "/1/login", json={"mobilePhoneNumber": number, "smsCode": code}) \
        .json()["code"] == 207  # used

    stranger = new_phone("18600")
    assert bmob.requestSMSCode(stranger) is not None
    unknown = bmob_raw(bmob, "POST", "/1/login", json={"mobilePhoneNumber": stranger, "smsCode": outbox.code(stranger)})
    assert unknown.json()["code"] == 101
    # and the password still logs in with the number as the name
    assert new_bmob().login(number, PASSWORD).objectId == object_id


def test_reset_the_password_by_sms_code(new_bmob, bmob, outbox, user_with_phone):
    name, object_id, number, owner = user_with_phone
    assert bmob.requestSMSCode(number) is not None
    code = outbox.code(number)

    assert bmob.resetPasswordBySMSCode(wrong(code), "newpw678") is False
    assert bmob.getError()["code"] == 207
    assert bmob.resetPasswordBySMSCode(code, "") is False
    assert bmob.getError()["code"] == 108
    assert bmob.resetPasswordBySMSCode(code, "newpw678") is True
    assert bmob.getError()["error"] is None
    assert bmob.resetPasswordBySMSCode(code, "thirdpw9") is False  # used
    assert bmob.getError()["code"] == 207

    old = new_bmob()
    assert old.login(name, PASSWORD) is None
    assert old.getError()["code"] == 101
    assert not owner.checkSession(object_id)  # the old stable token is revoked
    assert owner.getError()["code"] == 211
    fresh = new_bmob()
    user = fresh.login(name, "newpw678")
    assert user is not None, fresh.getError()
    assert user.objectId == object_id
    assert fresh.checkSession(object_id) is True
    assert new_bmob().login(number, "newpw678").objectId == object_id


def test_reset_password_by_email(new_bmob, outbox, class_name, accounts_server):
    client = new_bmob()
    name = class_name.lower()
    email = name + "@example.com"
    created = client.signUp(name, PASSWORD)
    client.login(name, PASSWORD)
    assert client.update("_User", created.objectId, {"email": email}) is True
    before = len(outbox.mails(email))  # the update mailed a verification link (--verify-email-on-sign-up)
    assert before == 1

    assert client.resetPasswordByEmail(email) is True
    mails = outbox.mails(email)
    assert len(mails) == before + 1
    link = outbox.link(mails[-1], "/auth/reset-password")
    assert link.startswith(accounts_server.url + "/auth/reset-password?token=")
    assert requests.get(link, timeout=30).status_code == 200
    token = link.split("token=")[1]
    done = requests.post(accounts_server.url + "/auth/reset-password", timeout=30,
                         data={"token": token, "password": "mailpw55", "confirm": "mailpw55"})
    assert done.status_code == 200, done.text
    assert new_bmob().login(name, "mailpw55").objectId == created.objectId

    nobody = new_bmob()
    assert nobody.resetPasswordByEmail("nobody-" + email) is False
    assert nobody.getError()["code"] == 205


def test_the_send_interval_answers_10010(cirrus, cirrus_outbox, new_phone):
    # the session-wide server keeps the default --sms-interval of 60 seconds
    bmob = client_for(cirrus)
    number = new_phone("18600")
    first = bmob.requestSMSCode(number)
    assert first is not None and isinstance(first.smsId, int)
    assert bmob.requestSMSCode(number) is None
    assert bmob.getError()["code"] == 10010
    [message] = cirrus_outbox.sms(number)
    assert bmob.verifySmsCode(number, message["code"]) is True
