"""Account flows through the LeanCloud Python SDK (leancloud==3.0.2): SMS codes for sign-up, log-in, phone
verification, number change and password reset; password reset and e-mail verification by mailed links, followed
with `requests` like a browser; send limits and sandbox numbers.

Most tests run against `accounts_server` (conftest: no interval between messages, a daily limit, verification
mails on sign-up, a sandbox number) through `lc_accounts`; codes and links are read from its outbox files. The
interval limit is checked on the session-wide server, which keeps the default of one message a minute."""

import json
import re
from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest
import requests

from conftest import ACCOUNTS_DAILY_LIMIT, APP_ID, APP_KEY, SANDBOX_CODE, SANDBOX_NUMBER

TOKEN = re.compile(r"[0-9a-z]{25}")
LINK_TOKEN = re.compile(r"[0-9a-z]{32}")


def error_code(leancloud, call, *args, **kwargs):
    with pytest.raises(leancloud.LeanCloudError) as error:
        call(*args, **kwargs)
    return error.value.code


def lc_headers(token=None):
    headers = {"X-LC-Id": APP_ID, "X-LC-Key": APP_KEY}
    if token:
        headers["X-LC-Session"] = token
    return headers


def wrong(code):
    """A six-digit code that is not `code`."""
    return "%06d" % ((int(code) + 1) % 1000000)


def login_by_sms_code(leancloud, number, code):
    """The SDK's way to log in with a code: a User holding mobilePhoneNumber and smsCode, then login() (which
    POSTs the attributes to /login and drops smsCode from the user afterwards)."""
    user = leancloud.User()
    user.set("mobilePhoneNumber", number)
    user.set("smsCode", code)
    user.login()
    return user


def fetch_user(leancloud, token):
    """The user of a session token as the server has it now (and makes it the SDK's current user)."""
    return leancloud.User.become(token)


# --- generic codes ---------------------------------------------------------------------------------------------


def test_request_and_verify_a_generic_code(lc_accounts, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    assert leancloud.cloud.request_sms_code(number) is None
    request = lc_accounts.wire[-1]
    assert request.request.path_url == "/1.1/requestSmsCode"
    assert json.loads(request.request.body) == {"mobilePhoneNumber": number, "smsType": "sms"}
    assert request.status_code == 200 and request.json() == {}

    [message] = outbox.sms(number)
    assert message["purpose"] == "sms" and message["channel"] == "sms"
    code = message["code"]
    assert re.fullmatch(r"\d{6}", code)
    assert message["text"] == ("[CirrusPy] Your code for verification is %s. It expires in 10 minutes. "
                               "Do not share it." % code)

    assert error_code(leancloud, leancloud.cloud.verify_sms_code, number, wrong(code)) == 603
    assert leancloud.cloud.verify_sms_code(number, code) is True
    assert lc_accounts.wire[-1].request.path_url == "/1.1/verifySmsCode/" + code
    assert lc_accounts.wire[-1].json() == {}
    # single use
    assert error_code(leancloud, leancloud.cloud.verify_sms_code, number, code) == 603


def test_template_variables_voice_channel_and_ttl(lc_accounts, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    leancloud.cloud.request_sms_code(number, sms_type="voice", params={"name": "Shop", "op": "paying", "ttl": 3})
    message = outbox.last_sms(number)
    assert message["channel"] == "voice"
    assert message["text"] == ("[Shop] Your code for paying is %s. It expires in 3 minutes. Do not share it."
                               % message["code"])
    # the SDK prefixes its idd (+86) to a number without "+"
    local = new_phone("18600")
    leancloud.cloud.request_sms_code(local)
    assert json.loads(lc_accounts.wire[-1].request.body)["mobilePhoneNumber"] == "+86" + local
    assert outbox.code("+86" + local, purpose="sms")


def test_bad_sms_requests(lc_accounts, new_phone):
    leancloud = lc_accounts.sdk
    assert error_code(leancloud, leancloud.cloud.request_sms_code, "+86abc") == 127
    assert error_code(leancloud, leancloud.cloud.request_sms_code, new_phone(), sms_type="fax") == 1
    assert error_code(leancloud, leancloud.cloud.request_sms_code, new_phone(), params={"ttl": 61}) == 1
    response = requests.post(lc_accounts.server.url + "/1.1/requestSmsCode", headers=lc_headers(), json={}, timeout=30)
    assert response.json()["code"] == 212
    number = new_phone()
    assert error_code(leancloud, leancloud.cloud.verify_sms_code, number, "123456") == 603  # never requested
    assert lc_accounts.outbox.sms(number) == []


# --- sign-up or log-in by code --------------------------------------------------------------------------------


def test_sign_up_or_log_in_with_a_code(lc_accounts, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    leancloud.cloud.request_sms_code(number)
    code = outbox.code(number, purpose="sms")

    user = leancloud.User.signup_or_login_with_mobile_phone(number, code)
    created = lc_accounts.wire[-1]
    assert created.request.path_url == "/1.1/usersByMobilePhone"
    assert json.loads(created.request.body) == {"mobilePhoneNumber": number, "smsCode": code}
    assert created.status_code == 201
    assert created.headers["Location"] == "/1.1/classes/_User/" + user.id
    body = created.json()
    assert "password" not in body and "smsCode" not in body
    assert body["username"] == number and body["mobilePhoneNumber"] == number
    assert body["mobilePhoneVerified"] is True
    assert TOKEN.fullmatch(body["sessionToken"])
    assert user.get_username() == number and user.get("mobilePhoneVerified") is True
    assert user.session_token == body["sessionToken"]
    assert leancloud.User.get_current() is user
    assert user.get("smsCode") is None

    # the code is used up
    leancloud.User.set_current(None)
    assert error_code(leancloud, leancloud.User.signup_or_login_with_mobile_phone, number, code) == 603

    # the same number with a new (log-in) code logs the same user in
    leancloud.User.request_login_sms_code(number)
    again = leancloud.User.signup_or_login_with_mobile_phone(number, outbox.code(number, purpose="login"))
    assert lc_accounts.wire[-1].status_code == 200
    assert again.id == user.id
    assert again.get_username() == number
    assert again.session_token == user.session_token
    assert fetch_user(leancloud, again.session_token).id == user.id


def test_sign_up_by_code_with_username_and_password(lc_accounts, new_phone, class_name):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number, name = new_phone(), class_name.lower()
    leancloud.cloud.request_sms_code(number)
    response = requests.post(lc_accounts.server.url + "/1.1/usersByMobilePhone", headers=lc_headers(), timeout=30,
                             json={"mobilePhoneNumber": number, "smsCode": outbox.code(number),
                                   "username": name, "password": "pw-by-sms"})
    assert response.status_code == 201, response.text
    assert response.json()["username"] == name
    user = leancloud.User.login_with_mobile_phone(number, "pw-by-sms")
    assert user.id == response.json()["objectId"] and user.get_username() == name


def test_wrong_code_does_not_sign_up(lc_accounts, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    leancloud.cloud.request_sms_code(number)
    code = outbox.code(number)
    assert error_code(leancloud, leancloud.User.signup_or_login_with_mobile_phone, number, wrong(code)) == 603
    assert leancloud.User.get_current() is None
    query = leancloud.Query("_User").equal_to("mobilePhoneNumber", number)
    leancloud.use_master_key(True)
    assert query.count() == 0
    leancloud.use_master_key(False)
    # the right code still works after one wrong try
    assert leancloud.User.signup_or_login_with_mobile_phone(number, code).get_username() == number


# --- log-in by code -------------------------------------------------------------------------------------------


def test_log_in_with_a_login_code(lc_accounts, lc_users, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    signed_up = lc_users.sign_up(mobilePhoneNumber=number)
    assert signed_up.get("mobilePhoneVerified") is False
    lc_users.act_as(None)

    leancloud.User.request_login_sms_code(number)
    assert lc_accounts.wire[-1].request.path_url == "/1.1/requestLoginSmsCode"
    message = outbox.last_sms(number)
    assert message["purpose"] == "login"
    code = message["code"]

    assert error_code(leancloud, login_by_sms_code, leancloud, number, wrong(code)) == 603
    assert leancloud.User.get_current() is None

    user = login_by_sms_code(leancloud, number, code)
    login = lc_accounts.wire[-1]
    assert login.request.path_url == "/1.1/login"
    assert json.loads(login.request.body) == {"mobilePhoneNumber": number, "smsCode": code}
    assert user.id == signed_up.id
    assert user.get_username() == signed_up.get_username()
    assert user.session_token == signed_up.session_token
    assert user.get("mobilePhoneVerified") is True  # a code log-in proves the number
    assert leancloud.User.get_current() is user
    assert fetch_user(leancloud, user.session_token).get("mobilePhoneVerified") is True

    leancloud.User.set_current(None)
    assert error_code(leancloud, login_by_sms_code, leancloud, number, code) == 603  # used
    # the password still works too
    assert leancloud.User.login_with_mobile_phone(number, lc_users.password).id == signed_up.id


def test_log_in_by_code_needs_a_known_number(lc_accounts, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    assert error_code(leancloud, leancloud.User.request_login_sms_code, number) == 213
    assert outbox.sms(number) == []
    leancloud.cloud.request_sms_code(number)
    assert error_code(leancloud, login_by_sms_code, leancloud, number, outbox.code(number)) == 211


def test_wrong_codes_lock_the_account(lc_accounts, lc_users, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    lc_users.sign_up(mobilePhoneNumber=number)
    lc_users.act_as(None)
    leancloud.User.request_login_sms_code(number)
    code = outbox.code(number, purpose="login")
    for _ in range(7):  # more than 6 wrong tries in 15 minutes
        assert error_code(leancloud, login_by_sms_code, leancloud, number, wrong(code)) in (603, 219)
    leancloud.User.request_login_sms_code(number)
    fresh = outbox.code(number, purpose="login")
    assert error_code(leancloud, login_by_sms_code, leancloud, number, fresh) == 219
    assert error_code(leancloud, leancloud.User.login_with_mobile_phone, number, lc_users.password) == 219
    assert leancloud.User.get_current() is None


# --- phone number verification and change ---------------------------------------------------------------------


def test_verify_a_phone_number(lc_accounts, lc_users, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    user = lc_users.sign_up(mobilePhoneNumber=number)
    token = user.session_token
    lc_users.act_as(None)

    leancloud.User.request_mobile_phone_verify(number)
    assert lc_accounts.wire[-1].request.path_url == "/1.1/requestMobilePhoneVerify"
    code = outbox.code(number, purpose="verify")
    assert error_code(leancloud, leancloud.User.verify_mobile_phone_number, wrong(code), number) == 603
    assert fetch_user(leancloud, token).get("mobilePhoneVerified") is False
    lc_users.act_as(None)

    leancloud.User.verify_mobile_phone_number(code, number)
    verified = lc_accounts.wire[-1]
    assert verified.request.path_url == "/1.1/verifyMobilePhone/" + code
    assert verified.json()["objectId"] == user.id and "updatedAt" in verified.json()
    assert fetch_user(leancloud, token).get("mobilePhoneVerified") is True
    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User.verify_mobile_phone_number, code, number) == 603  # used

    # nothing is sent for a verified number
    sent = len(outbox.sms(number))
    leancloud.User.request_mobile_phone_verify(number)
    assert lc_accounts.wire[-1].json() == {}
    assert len(outbox.sms(number)) == sent

    assert error_code(leancloud, leancloud.User.request_mobile_phone_verify, new_phone()) == 213


def test_verification_by_code_alone_and_generic_codes_for_account_purposes(lc_accounts, lc_users, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    user = lc_users.sign_up(mobilePhoneNumber=number)
    lc_users.act_as(None)
    leancloud.User.request_mobile_phone_verify(number)
    code = outbox.code(number, purpose="verify")
    # the SDK always sends the number; the server also finds the user by the code alone (no body)
    response = requests.post(lc_accounts.server.url + "/1.1/verifyMobilePhone/" + code, headers=lc_headers(),
                             timeout=30)
    assert response.status_code == 200, response.text
    assert response.json()["objectId"] == user.id
    assert fetch_user(leancloud, user.session_token).get("mobilePhoneVerified") is True
    lc_users.act_as(None)

    # a generic requestSmsCode code proves the number for a password reset too
    leancloud.cloud.request_sms_code(number)
    leancloud.User.reset_password_by_sms_code(outbox.code(number, purpose="sms"), "generic-pw-3", number)
    assert leancloud.User.login_with_mobile_phone(number, "generic-pw-3").id == user.id


def test_change_the_phone_number(lc_accounts, lc_users, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    old_number, new_number = new_phone(), new_phone()
    user = lc_users.sign_up(mobilePhoneNumber=old_number)  # current user: its session goes with the calls

    leancloud.User.request_change_phone_number(new_number, ttl=5)
    request = lc_accounts.wire[-1]
    assert request.request.path_url == "/1.1/requestChangePhoneNumber"
    assert request.request.headers["X-LC-Session"] == user.session_token
    assert json.loads(request.request.body) == {"mobilePhoneNumber": new_number, "ttl": 5}
    assert outbox.sms(old_number) == []
    code = outbox.code(new_number, purpose="change")

    assert error_code(leancloud, leancloud.User.change_phone_number, wrong(code), new_number) == 603
    other = new_phone()  # the right code for another number than the requested one
    assert error_code(leancloud, leancloud.User.change_phone_number, code, other) == 603

    leancloud.User.change_phone_number(code, new_number)
    changed = lc_accounts.wire[-1]
    assert changed.request.path_url == "/1.1/changePhoneNumber"
    assert json.loads(changed.request.body) == {"mobilePhoneNumber": new_number, "code": code}
    assert changed.json()["objectId"] == user.id and "updatedAt" in changed.json()

    now = fetch_user(leancloud, user.session_token)
    assert now.get_mobile_phone_number() == new_number
    assert now.get("mobilePhoneVerified") is True
    assert error_code(leancloud, leancloud.User.change_phone_number, code, new_number) == 603  # used
    lc_users.act_as(None)
    assert leancloud.User.login_with_mobile_phone(new_number, lc_users.password).id == user.id
    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User.login_with_mobile_phone, old_number, lc_users.password) == 211


def test_change_phone_number_rules(lc_accounts, lc_users, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    taken, wanted = new_phone(), new_phone()
    lc_users.sign_up(mobilePhoneNumber=taken)
    asker = lc_users.sign_up()
    assert error_code(leancloud, leancloud.User.request_change_phone_number, taken) == 214
    assert outbox.sms(taken) == []

    leancloud.User.request_change_phone_number(wanted)
    code = outbox.code(wanted, purpose="change")
    thief = lc_users.sign_up()  # another user cannot use the asker's code
    assert error_code(leancloud, leancloud.User.change_phone_number, code, wanted) == 603
    assert fetch_user(leancloud, thief.session_token).get_mobile_phone_number() is None

    lc_users.act_as(None)
    response = requests.post(lc_accounts.server.url + "/1.1/requestChangePhoneNumber", headers=lc_headers(),
                             json={"mobilePhoneNumber": new_phone()}, timeout=30)
    assert response.status_code == 403
    response = requests.post(lc_accounts.server.url + "/1.1/changePhoneNumber", headers=lc_headers(),
                             json={"mobilePhoneNumber": wanted, "code": code}, timeout=30)
    assert response.status_code == 403

    lc_users.act_as(asker)
    leancloud.User.change_phone_number(code, wanted)
    assert fetch_user(leancloud, asker.session_token).get_mobile_phone_number() == wanted


# --- password reset by SMS ------------------------------------------------------------------------------------


def test_reset_the_password_by_sms(lc_accounts, lc_users, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    user = lc_users.sign_up(mobilePhoneNumber=number)
    old_token = user.session_token
    lc_users.act_as(None)

    leancloud.User.request_password_reset_by_sms_code(number)
    assert lc_accounts.wire[-1].request.path_url == "/1.1/requestPasswordResetBySmsCode"
    code = outbox.code(number, purpose="reset")

    assert error_code(leancloud, leancloud.User.reset_password_by_sms_code, wrong(code), "new-pass-9", number) == 603
    assert error_code(leancloud, leancloud.User.reset_password_by_sms_code, code, "", number) == 218
    leancloud.User.reset_password_by_sms_code(code, "new-pass-9", number)
    reset = lc_accounts.wire[-1]
    assert reset.request.method == "PUT" and reset.request.path_url == "/1.1/resetPasswordBySmsCode/" + code
    assert json.loads(reset.request.body) == {"password": "new-pass-9", "mobilePhoneNumber": number}
    assert reset.json() == {}
    assert error_code(leancloud, leancloud.User.reset_password_by_sms_code, code, "third-pass", number) == 603

    assert error_code(leancloud, leancloud.User.login_with_mobile_phone, number, lc_users.password) == 210
    assert error_code(leancloud, leancloud.User.become, old_token) == 211  # the stable token is revoked
    by_phone = leancloud.User.login_with_mobile_phone(number, "new-pass-9")
    assert by_phone.id == user.id
    assert TOKEN.fullmatch(by_phone.session_token) and by_phone.session_token != old_token
    lc_users.act_as(None)
    by_name = leancloud.User()
    by_name.login(user.get_username(), "new-pass-9")
    assert by_name.id == user.id


def test_password_reset_by_sms_needs_a_known_number(lc_accounts, new_phone):
    leancloud = lc_accounts.sdk
    number = new_phone()
    assert error_code(leancloud, leancloud.User.request_password_reset_by_sms_code, number) == 213
    assert lc_accounts.outbox.sms(number) == []


# --- e-mail: password reset and verification pages ------------------------------------------------------------


class FormReader(HTMLParser):
    """The forms of a page: action, method and inputs (name, type, value)."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attrs.get("action"), "method": (attrs.get("method") or "get").lower(),
                               "inputs": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append((attrs.get("name"), (attrs.get("type") or "text").lower(),
                                             attrs.get("value") or ""))


def only_form(page):
    reader = FormReader()
    reader.feed(page.text)
    assert len(reader.forms) == 1, page.text
    return reader.forms[0]


def submit_password(page_url, page, password, confirm=None):
    """Fills the page's form as a browser would (hidden fields kept, the password fields filled) and posts it."""
    form = only_form(page)
    assert form["method"] == "post"
    data, password_fields = {}, 0
    for name, kind, value in form["inputs"]:
        if kind == "password":
            data[name] = password if password_fields == 0 else (password if confirm is None else confirm)
            password_fields += 1
        elif name:
            data[name] = value
    assert password_fields >= 1, form
    return requests.post(urljoin(page_url, form["action"] or page_url), data=data, timeout=30)


def test_reset_the_password_by_email(lc_accounts, lc_users):
    leancloud, outbox, server = lc_accounts.sdk, lc_accounts.outbox, lc_accounts.server
    name = lc_users.name()
    email = name + "@example.com"
    user = lc_users.sign_up(username=name, email=email)
    old_token = user.session_token
    lc_users.act_as(None)

    leancloud.User.request_password_reset(email)
    assert lc_accounts.wire[-1].request.path_url == "/1.1/requestPasswordReset"
    assert lc_accounts.wire[-1].json() == {}
    mail = outbox.mails(email)[-1]
    assert mail["to"] == [email]
    assert "password" in mail["subject"].lower() and "CirrusPy" in mail["subject"]
    link = outbox.link(mail, "/auth/reset-password")
    assert link.startswith(server.url + "/auth/reset-password?token=")
    assert LINK_TOKEN.fullmatch(link.split("token=")[1])

    page = requests.get(link, timeout=30)
    assert page.status_code == 200
    assert page.headers["Content-Type"].startswith("text/html")
    assert page.headers["Cache-Control"] == "no-store"
    form = only_form(page)
    assert sorted(kind for _, kind, _ in form["inputs"]) == ["hidden", "password", "password"]

    # a mismatched repetition shows the form again and keeps the link usable
    mismatch = submit_password(link, page, "mail-pass-7", confirm="other-pass-7")
    assert only_form(mismatch)["action"] == form["action"]
    assert error_code(leancloud, leancloud.User().login, name, "mail-pass-7") == 210

    done = submit_password(link, page, "mail-pass-7")
    assert done.status_code == 200, done.text
    reader = FormReader()
    reader.feed(done.text)
    assert reader.forms == []  # a result page, not the form again

    assert error_code(leancloud, leancloud.User().login, name, lc_users.password) == 210
    assert error_code(leancloud, leancloud.User.become, old_token) == 211
    lc_users.act_as(None)
    fresh = leancloud.User()
    fresh.login(email=email, password="mail-pass-7")
    assert fresh.id == user.id and fresh.session_token != old_token

    # the link works once
    assert requests.get(link, timeout=30).status_code == 400
    again = requests.post(urljoin(link, form["action"]), timeout=30,
                          data={"token": link.split("token=")[1], "password": "x-pass-8", "confirm": "x-pass-8"})
    assert again.status_code == 400
    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User().login, name, "x-pass-8") == 210


def test_password_reset_by_username_mails_the_users_address(lc_accounts, lc_users):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    name = lc_users.name()
    email = name + "@example.com"
    lc_users.sign_up(username=name, email=email)
    lc_users.act_as(None)
    before = len(outbox.mails(email))
    leancloud.User.request_password_reset(name)
    mails = outbox.mails(email)
    assert len(mails) == before + 1
    assert outbox.link(mails[-1], "/auth/reset-password")
    assert error_code(leancloud, leancloud.User.request_password_reset, "nobody-" + email) == 205


def test_verify_the_email_address_by_link(lc_accounts, lc_users):
    leancloud, outbox, server = lc_accounts.sdk, lc_accounts.outbox, lc_accounts.server
    name = lc_users.name()
    email = name + "@example.com"
    user = lc_users.sign_up(username=name, email=email)  # --verify-email-on-sign-up mails a link
    assert user.get("emailVerified") is False
    [signup_mail] = outbox.mails(email)
    assert "CirrusPy" in signup_mail["subject"] and name in signup_mail["text"]
    first_link = outbox.link(signup_mail, "/auth/verify-email")
    assert first_link.startswith(server.url + "/auth/verify-email?token=")

    # a new link replaces the previous one
    leancloud.User.request_email_verify(email)
    assert lc_accounts.wire[-1].request.path_url == "/1.1/requestEmailVerify"
    mails = outbox.mails(email)
    assert len(mails) == 2
    link = outbox.link(mails[-1], "/auth/verify-email")
    assert link != first_link
    assert requests.get(first_link, timeout=30).status_code == 400
    assert fetch_user(leancloud, user.session_token).get("emailVerified") is False

    page = requests.get(link, timeout=30)
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    assert fetch_user(leancloud, user.session_token).get("emailVerified") is True
    assert requests.get(link, timeout=30).status_code == 400  # once

    # nothing is sent for a verified address
    leancloud.User.request_email_verify(email)
    assert len(outbox.mails(email)) == 2


def test_an_email_change_resets_verification_and_mails_the_new_address(lc_accounts, lc_users):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    name = lc_users.name()
    first, second = name + "@example.com", name + "@example.org"
    user = lc_users.sign_up(username=name, email=first)
    link = outbox.link(outbox.mails(first)[-1], "/auth/verify-email")
    user.set_email(second)
    user.save()
    assert fetch_user(leancloud, user.session_token).get("emailVerified") is False
    assert requests.get(link, timeout=30).status_code == 400  # the address changed since
    assert fetch_user(leancloud, user.session_token).get("emailVerified") is False
    assert requests.get(outbox.link(outbox.mails(second)[-1], "/auth/verify-email"), timeout=30).status_code == 200
    assert fetch_user(leancloud, user.session_token).get("emailVerified") is True


def test_bad_page_tokens(lc_accounts):
    url = lc_accounts.server.url
    for path in ("/auth/verify-email", "/auth/reset-password"):
        page = requests.get(url + path + "?token=" + "a" * 32, timeout=30)
        assert page.status_code == 400
        assert "Invalid or expired link" in page.text
        assert requests.get(url + path, timeout=30).status_code == 400


# --- limits and sandbox numbers -------------------------------------------------------------------------------


def test_a_second_code_within_the_interval_is_refused(leancloud, cirrus_outbox, new_phone):
    # the session-wide server keeps the default --sms-interval of 60 seconds
    number = new_phone()
    leancloud.cloud.request_sms_code(number)
    first = cirrus_outbox.code(number, purpose="sms")
    assert error_code(leancloud, leancloud.cloud.request_sms_code, number) == 601
    assert len(cirrus_outbox.sms(number)) == 1
    # the refused request did not replace the code
    assert leancloud.cloud.verify_sms_code(number, first) is True
    # another number is not limited
    other = new_phone()
    leancloud.cloud.request_sms_code(other)
    assert len(cirrus_outbox.sms(other)) == 1


def test_every_purpose_shares_the_interval(leancloud, lc_users, cirrus_outbox, new_phone):
    number = new_phone()
    lc_users.sign_up(mobilePhoneNumber=number)
    lc_users.act_as(None)
    leancloud.User.request_login_sms_code(number)
    code = cirrus_outbox.code(number, purpose="login")
    assert error_code(leancloud, leancloud.User.request_mobile_phone_verify, number) == 601
    assert error_code(leancloud, leancloud.User.request_password_reset_by_sms_code, number) == 601
    assert error_code(leancloud, leancloud.cloud.request_sms_code, number) == 601
    assert len(cirrus_outbox.sms(number)) == 1
    assert login_by_sms_code(leancloud, number, code).get_mobile_phone_number() == number


def test_a_second_mail_within_the_interval_is_refused(leancloud, lc_users, cirrus_outbox):
    name = lc_users.name()
    email = name + "@example.com"
    lc_users.sign_up(username=name, email=email)
    lc_users.act_as(None)
    assert cirrus_outbox.mails(email) == []  # no --verify-email-on-sign-up here
    leancloud.User.request_password_reset(email)
    assert len(cirrus_outbox.mails(email)) == 1
    assert error_code(leancloud, leancloud.User.request_password_reset, email) == 601
    assert len(cirrus_outbox.mails(email)) == 1


def test_the_daily_limit(lc_accounts, new_phone):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    number = new_phone()
    for _ in range(ACCOUNTS_DAILY_LIMIT):
        leancloud.cloud.request_sms_code(number)
    assert len(outbox.sms(number)) == ACCOUNTS_DAILY_LIMIT
    assert error_code(leancloud, leancloud.cloud.request_sms_code, number) == 601
    assert len(outbox.sms(number)) == ACCOUNTS_DAILY_LIMIT


def test_a_sandbox_number_has_a_fixed_code_and_sends_nothing(lc_accounts):
    leancloud, outbox = lc_accounts.sdk, lc_accounts.outbox
    for _ in range(ACCOUNTS_DAILY_LIMIT + 2):  # no limits
        leancloud.cloud.request_sms_code(SANDBOX_NUMBER)
        assert lc_accounts.wire[-1].json() == {}
    assert outbox.sms(SANDBOX_NUMBER) == []

    assert leancloud.cloud.verify_sms_code(SANDBOX_NUMBER, SANDBOX_CODE) is True
    assert leancloud.cloud.verify_sms_code(SANDBOX_NUMBER, SANDBOX_CODE) is True  # any number of times
    assert error_code(leancloud, leancloud.cloud.verify_sms_code, SANDBOX_NUMBER, wrong(SANDBOX_CODE)) == 603

    user = leancloud.User.signup_or_login_with_mobile_phone(SANDBOX_NUMBER, SANDBOX_CODE)
    assert user.get_username() == SANDBOX_NUMBER and user.get("mobilePhoneVerified") is True
    leancloud.User.set_current(None)
    leancloud.User.request_login_sms_code(SANDBOX_NUMBER)
    again = login_by_sms_code(leancloud, SANDBOX_NUMBER, SANDBOX_CODE)
    assert again.id == user.id
    leancloud.User.request_password_reset_by_sms_code(SANDBOX_NUMBER)
    leancloud.User.reset_password_by_sms_code(SANDBOX_CODE, "sandbox-pw-1", SANDBOX_NUMBER)
    leancloud.User.set_current(None)
    assert leancloud.User.login_with_mobile_phone(SANDBOX_NUMBER, "sandbox-pw-1").id == user.id
    assert outbox.sms(SANDBOX_NUMBER) == []
