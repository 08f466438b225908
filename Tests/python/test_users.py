"""LeanCloud users and sessions through the SDK's User API: sign-up, log-in, become, own-record updates,
password changes, session-token refresh and the log-in lock-out."""

import json
import re

import pytest

TOKEN = re.compile(r"[0-9a-z]{25}")


def error_code(leancloud, call, *args, **kwargs):
    with pytest.raises(leancloud.LeanCloudError) as error:
        call(*args, **kwargs)
    return error.value.code


def user_headers(token=None):
    headers = {"X-LC-Id": "pytest-app-id", "X-LC-Key": "pytest-app-key"}
    if token:
        headers["X-LC-Session"] = token
    return headers


def test_sign_up_returns_the_whole_user_with_a_session_token(leancloud, lc_users, wire):
    name = lc_users.name()
    user = lc_users.sign_up(username=name, email=name + "@example.com", nick="Ann")
    signup = wire[-1]
    assert signup.request.method == "POST"
    assert signup.request.path_url.split("?")[0] == "/1.1/classes/_User"
    assert signup.status_code == 201
    body = signup.json()
    assert "password" not in body
    assert body["username"] == name
    assert body["email"] == name + "@example.com"
    assert body["nick"] == "Ann"
    assert body["emailVerified"] is False
    assert body["mobilePhoneVerified"] is False
    assert body["objectId"] == user.id
    assert re.fullmatch(r"[0-9a-f]{24}", user.id)
    assert TOKEN.fullmatch(user.session_token)
    assert body["sessionToken"] == user.session_token
    assert leancloud.User.get_current() is user
    assert user.get("password") is None
    assert user.is_authenticated() is True


def test_sign_up_on_the_users_endpoint(raw, lc_users):
    name = lc_users.name()
    response = raw.request("POST", "/1.1/users", headers=user_headers(),
                           json={"username": name, "password": "pw", "age": 7})
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == name and body["age"] == 7
    assert "password" not in body
    assert TOKEN.fullmatch(body["sessionToken"])
    assert body["emailVerified"] is False and body["mobilePhoneVerified"] is False
    assert response.headers["Location"] == "/1.1/classes/_User/" + body["objectId"]


def test_duplicate_username_email_and_phone_are_refused(leancloud, lc_users):
    first = lc_users.sign_up(email=lc_users.name() + "@example.com", mobilePhoneNumber="+8613911110001")
    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User().sign_up, first.get_username(), "other") == 202
    same_email = leancloud.User(email=first.get_email())
    assert error_code(leancloud, same_email.sign_up, lc_users.name(), "other") == 203
    same_phone = leancloud.User(mobilePhoneNumber="+8613911110001")
    assert error_code(leancloud, same_phone.sign_up, lc_users.name(), "other") == 214
    assert leancloud.User.get_current() is None


@pytest.mark.parametrize("body,code", [
    ({"username": "", "password": "pw"}, 217),
    ({"password": "pw"}, 217),
    ({"username": "nobody-without-password", "password": ""}, 218),
    ({"username": "nobody-without-password"}, 218),
])
def test_sign_up_needs_username_and_password(raw, body, code):
    # The SDK refuses these itself (TypeError) before sending anything, so they go raw.
    response = raw.request("POST", "/1.1/users", headers=user_headers(), json=body)
    assert response.status_code >= 400
    assert response.json()["code"] == code


def test_login_by_username_and_by_email_gives_the_same_stable_token(leancloud, lc_users, wire):
    name = lc_users.name()
    signed_up = lc_users.sign_up(username=name, email=name + "@example.com", score=3)
    lc_users.act_as(None)

    by_name = leancloud.User()
    by_name.login(name, lc_users.password)
    login = wire[-1]
    assert login.request.path_url == "/1.1/login"
    assert json.loads(login.request.body) == {"username": name, "password": lc_users.password}
    assert "password" not in login.json()
    assert by_name.id == signed_up.id
    assert by_name.get("score") == 3
    assert by_name.get_email() == name + "@example.com"
    assert by_name.session_token == signed_up.session_token
    assert leancloud.User.get_current() is by_name

    lc_users.act_as(None)
    by_email = leancloud.User()
    by_email.login(email=name + "@example.com", password=lc_users.password)
    assert by_email.id == signed_up.id
    assert by_email.get_username() == name
    assert by_email.session_token == signed_up.session_token
    assert leancloud.User.get_current() is by_email


def test_login_by_mobile_phone_number(leancloud, lc_users):
    signed_up = lc_users.sign_up(mobilePhoneNumber="+8613911110002")
    lc_users.act_as(None)
    user = leancloud.User.login_with_mobile_phone("+8613911110002", lc_users.password)
    assert user.id == signed_up.id
    assert user.session_token == signed_up.session_token
    assert user.get_mobile_phone_number() == "+8613911110002"


def test_wrong_password_and_unknown_user(leancloud, lc_users):
    user = lc_users.sign_up()
    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User().login, user.get_username(), "wrong") == 210
    assert error_code(leancloud, leancloud.User().login, lc_users.name() + "-nobody", "pw") == 211
    assert leancloud.User.get_current() is None


def test_seven_wrong_passwords_lock_the_account(leancloud, lc_users):
    user = lc_users.sign_up()
    name = user.get_username()
    lc_users.act_as(None)
    codes = [error_code(leancloud, leancloud.User().login, name, "wrong-%d" % i) for i in range(7)]
    assert codes == [210] * 6 + [219]
    assert error_code(leancloud, leancloud.User().login, name, lc_users.password) == 219
    assert leancloud.User.get_current() is None
    # Other accounts are not affected.
    other = lc_users.sign_up()
    lc_users.act_as(None)
    fine = leancloud.User()
    fine.login(other.get_username(), lc_users.password)
    assert fine.id == other.id


def test_become_and_is_authenticated(leancloud, lc_users, wire):
    user = lc_users.sign_up(nick="bea")
    lc_users.act_as(None)
    became = leancloud.User.become(user.session_token)
    assert wire[-1].request.path_url == "/1.1/users/me?session_token=" + user.session_token
    assert became.id == user.id
    assert became.get_username() == user.get_username()
    assert became.get("nick") == "bea"
    assert became.session_token == user.session_token
    assert leancloud.User.get_current() is became
    assert became.is_authenticated() is True

    assert error_code(leancloud, leancloud.User.become, "x" * 25) == 211
    assert wire[-1].status_code == 400
    stranger = leancloud.User()
    assert stranger.is_authenticated() is False  # no token: no request at all


def test_users_me_reads_the_header_and_prefers_the_query_parameter(raw, lc_users):
    alice = lc_users.sign_up()
    bob = lc_users.sign_up()
    by_header = raw.request("GET", "/1.1/users/me", headers=user_headers(alice.session_token))
    assert by_header.status_code == 200
    assert by_header.json()["objectId"] == alice.id
    assert by_header.json()["sessionToken"] == alice.session_token
    assert "password" not in by_header.json()
    both = raw.request("GET", "/1.1/users/me", headers=user_headers(alice.session_token),
                       params={"session_token": bob.session_token})
    assert both.json()["objectId"] == bob.id
    bad = raw.request("GET", "/1.1/users/me", headers=user_headers("n" * 25))
    assert bad.status_code == 400 and bad.json()["code"] == 211


def test_a_user_saves_its_own_record(leancloud, lc_users, wire):
    user = lc_users.sign_up(nick="before")
    user.set("nick", "after")
    user.increment("logins", 2)
    user.save()
    update = wire[-1]
    assert update.request.method == "PUT"
    assert update.request.path_url.split("?")[0] == "/1.1/classes/_User/" + user.id
    assert update.request.headers["X-LC-Session"] == user.session_token
    assert update.status_code == 200
    lc_users.act_as(None)
    fresh = leancloud.User.create_without_data(user.id)
    fresh.fetch()
    assert fresh.get("nick") == "after"
    assert fresh.get("logins") == 2
    assert fresh.get_username() == user.get_username()


def test_a_user_cannot_save_or_delete_another_user(leancloud, lc_users):
    alice = lc_users.sign_up(nick="alice")
    lc_users.sign_up()  # bob is now current
    target = leancloud.User.create_without_data(alice.id)
    target.fetch()
    assert target.get("nick") == "alice"
    target.set("nick", "hacked")
    assert error_code(leancloud, target.save) == 206
    assert error_code(leancloud, target.destroy) == 206
    lc_users.act_as(None)
    anonymous = leancloud.User.create_without_data(alice.id)
    anonymous.set("nick", "hacked")
    assert error_code(leancloud, anonymous.save) == 206
    check = leancloud.User.create_without_data(alice.id)
    check.fetch()
    assert check.get("nick") == "alice"


def test_the_users_endpoints_enforce_the_same_rule(raw, lc_users):
    alice = lc_users.sign_up()
    bob = lc_users.sign_up()
    path = "/1.1/users/" + alice.id
    denied = raw.request("PUT", path, headers=user_headers(bob.session_token), json={"nick": "x"})
    assert denied.json()["code"] == 206
    allowed = raw.request("PUT", path, headers=user_headers(alice.session_token), json={"nick": "mine"})
    assert allowed.status_code == 200 and "updatedAt" in allowed.json()
    fetched = raw.request("GET", path, headers=user_headers())
    assert fetched.status_code == 200 and fetched.json()["nick"] == "mine"
    gone = raw.request("DELETE", path, headers=user_headers(alice.session_token))
    assert gone.status_code == 200
    missing = raw.request("GET", path, headers=user_headers())
    assert missing.status_code == 400 and missing.json()["code"] == 211


def test_another_users_record_shows_no_secrets(leancloud, lc_users):
    alice = lc_users.sign_up()
    lc_users.sign_up()
    seen = leancloud.User.create_without_data(alice.id)
    seen.fetch()
    assert seen.get_username() == alice.get_username()
    assert seen.session_token is None
    assert seen.get("password") is None


def test_finding_users_needs_the_master_key(leancloud, lc_users):
    user = lc_users.sign_up()
    query = leancloud.Query(leancloud.User).equal_to("username", user.get_username())
    assert error_code(leancloud, query.find) == 403
    lc_users.act_as(None)
    assert error_code(leancloud, query.find) == 403
    leancloud.use_master_key(True)
    found = query.find()
    assert [u.id for u in found] == [user.id]
    assert found[0].get("password") is None


def test_update_password_issues_a_new_token_and_the_new_password_logs_in(leancloud, lc_users, raw, class_name):
    user = lc_users.sign_up()
    old_token = user.session_token
    assert error_code(leancloud, user.update_password, "not-the-password", "new-pass-2") == 210
    user.update_password(lc_users.password, "new-pass-2")
    assert TOKEN.fullmatch(user.session_token)
    assert user.session_token != old_token
    assert leancloud.User.get_current() is user

    stale = raw.request("POST", "/1.1/classes/" + class_name, headers=user_headers(old_token), json={"n": 1})
    assert stale.status_code == 403 and stale.json()["code"] == 403
    assert error_code(leancloud, leancloud.User.become, old_token) == 211
    assert leancloud.User.become(user.session_token).id == user.id

    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User().login, user.get_username(), lc_users.password) == 210
    again = leancloud.User()
    again.login(user.get_username(), "new-pass-2")
    assert again.id == user.id
    assert again.session_token == user.session_token


def test_update_password_reply_shape(raw, lc_users):
    user = lc_users.sign_up()
    response = raw.request("PUT", "/1.1/users/%s/updatePassword" % user.id, headers=user_headers(user.session_token),
                           json={"old_password": lc_users.password, "new_password": "other-pass"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"updatedAt", "objectId", "sessionToken"}
    assert body["objectId"] == user.id and body["sessionToken"] != user.session_token
    other = lc_users.sign_up()
    foreign = raw.request("PUT", "/1.1/users/%s/updatePassword" % user.id,
                          headers=user_headers(other.session_token),
                          json={"old_password": "other-pass", "new_password": "stolen"})
    assert foreign.status_code >= 400 and "error" in foreign.json()


def test_refresh_session_token_invalidates_the_old_one(leancloud, lc_users, wire):
    user = lc_users.sign_up()
    old_token = user.session_token
    stale = leancloud.User.become(old_token)  # another "device" holding the old token
    assert stale.is_authenticated() is True
    lc_users.act_as(user)
    user.refresh_session_token()
    refresh = wire[-1]
    assert refresh.request.path_url == "/1.1/users/%s/refreshSessionToken" % user.id
    assert set(refresh.json()) == {"updatedAt", "objectId", "sessionToken"}
    assert TOKEN.fullmatch(user.session_token) and user.session_token != old_token
    assert stale.is_authenticated() is False
    assert error_code(leancloud, leancloud.User.become, old_token) == 211
    assert leancloud.User.become(user.session_token).id == user.id
    lc_users.act_as(None)
    again = leancloud.User()
    again.login(user.get_username(), lc_users.password)
    assert again.session_token == user.session_token


def test_logout_only_forgets_the_current_user(leancloud, lc_users, wire):
    user = lc_users.sign_up()
    sent = len(wire)
    user.logout()
    assert len(wire) == sent
    assert leancloud.User.get_current() is None
    assert user.is_authenticated() is True  # the token itself stays valid


def test_auth_data_is_visible_only_to_its_user_and_the_master_key(leancloud, lc_users, raw):
    alice = lc_users.sign_up()
    auth = {"weixin": {"openid": "o-" + alice.id, "access_token": "t"}}
    leancloud.use_master_key(True)
    alice.set("authData", auth)
    alice.save()
    leancloud.use_master_key(False)
    own = raw.request("GET", "/1.1/users/me", headers=user_headers(alice.session_token)).json()
    assert own["authData"]["weixin"]["openid"] == "o-" + alice.id
    bob = lc_users.sign_up()
    seen_by_bob = raw.request("GET", "/1.1/users/" + alice.id, headers=user_headers(bob.session_token)).json()
    assert seen_by_bob["objectId"] == alice.id and "authData" not in seen_by_bob
    anonymous = raw.request("GET", "/1.1/classes/_User/" + alice.id, headers=user_headers()).json()
    assert anonymous["objectId"] == alice.id and "authData" not in anonymous
    master = raw.request("GET", "/1.1/users/" + alice.id,
                         headers={"X-LC-Id": "pytest-app-id", "X-LC-Key": "pytest-master-key,master"}).json()
    assert master["authData"]["weixin"]["openid"] == "o-" + alice.id


def test_login_ignores_the_current_users_session(leancloud, lc_users, wire):
    alice = lc_users.sign_up()
    bob = lc_users.sign_up()
    lc_users.act_as(alice)  # the SDK sends alice's X-LC-Session along with bob's credentials
    user = leancloud.User()
    user.login(bob.get_username(), lc_users.password)
    assert wire[-1].request.headers["X-LC-Session"] == alice.session_token
    assert user.id == bob.id and user.session_token == bob.session_token
    assert leancloud.User.get_current() is user


def test_batch_updates_of_users_follow_the_same_rule(leancloud, lc_users):
    alice = lc_users.sign_up(nick="alice")
    bob = lc_users.sign_up(nick="bob")  # current
    reply = leancloud.client.post("/batch", {"requests": [
        {"method": "PUT", "path": "/1.1/classes/_User/" + alice.id, "body": {"nick": "hacked"}},
        {"method": "PUT", "path": "/1.1/classes/_User/" + bob.id, "body": {"nick": "bob2"}},
    ]}).json()
    assert reply[0]["error"]["code"] == 206
    assert "success" in reply[1]
    lc_users.act_as(None)
    nicks = []
    for user in (alice, bob):
        fresh = leancloud.User.create_without_data(user.id)
        fresh.fetch()
        nicks.append(fresh.get("nick"))
    assert nicks == ["alice", "bob2"]


def test_a_deleted_users_session_is_gone(leancloud, lc_users):
    user = lc_users.sign_up()
    token = user.session_token
    user.destroy()
    assert error_code(leancloud, leancloud.User.become, token) == 211
    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User().login, user.get_username(), lc_users.password) == 211


def test_a_right_password_resets_the_failure_count(leancloud, lc_users):
    user = lc_users.sign_up()
    name = user.get_username()
    lc_users.act_as(None)
    for attempt in range(2):
        codes = [error_code(leancloud, leancloud.User().login, name, "wrong-%d" % i) for i in range(5)]
        assert codes == [210] * 5, attempt
        ok = leancloud.User()
        ok.login(name, lc_users.password)
        assert ok.id == user.id
        lc_users.act_as(None)


def test_usernames_are_case_sensitive_and_stay_unique_on_update(leancloud, lc_users):
    name = lc_users.name()
    lower = lc_users.sign_up(username=name)
    upper = lc_users.sign_up(username=name.upper())
    assert upper.id != lower.id
    upper.set("username", name)
    assert error_code(leancloud, upper.save) == 202
    upper.set("username", name + "-renamed")
    upper.save()
    lc_users.act_as(None)
    again = leancloud.User()
    again.login(name + "-renamed", lc_users.password)
    assert again.id == upper.id


def test_a_user_can_set_a_new_password_by_saving_itself(leancloud, lc_users):
    user = lc_users.sign_up()
    user.set_password("saved-pass-3")
    user.save()
    assert user.get("password") is None
    lc_users.act_as(None)
    assert error_code(leancloud, leancloud.User().login, user.get_username(), lc_users.password) == 210
    again = leancloud.User()
    again.login(user.get_username(), "saved-pass-3")
    assert again.id == user.id
