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


def test_text_search_ranks_by_score_and_refuses_bad_input(parse, cirrus):
    """Parse's $text with $score through ParsePy's own request layer (it has no full-text helper): Parse Server's
    fixtures and a CJK word, best match first, and its errors for malformed operands and unindexed fields."""
    import json

    from parse_rest.core import ResourceRequestBadRequest

    connection, datatypes, _ = parse
    class_name = unique("Text").replace("-", "_")
    klass = datatypes.Object.factory(class_name)
    for subject in ["coffee", "Coffee Shopping", "coffee and cream", "Baking a cake", "冰咖啡很好喝"]:
        klass(subject=subject, comment=subject).save()
    enabled = requests.put(cirrus.url + "/1/schemas/" + class_name, timeout=10, json={"search": {"fields": ["subject"]}},
                           headers={"X-Parse-Application-Id": APP_ID, "X-Parse-Master-Key": "pytest-master-key"})
    assert enabled.status_code == 200, enabled.text
    path = "/classes/" + class_name

    def text(term, field="subject", **flags):
        return json.dumps({field: {"$text": {"$search": dict({"$term": term}, **flags)}}})

    found = connection.ParseBase.GET(path, where=text("coffee"))["results"]
    assert sorted(o["subject"] for o in found) == ["Coffee Shopping", "coffee", "coffee and cream"]
    ranked = connection.ParseBase.GET(path, where=text("coffee cream"), order="$score", keys="$score")["results"]
    scores = [o["score"] for o in ranked]
    assert len(ranked) == 3 and scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    assert "subject" not in ranked[0]
    best = connection.ParseBase.GET(path + "/" + ranked[0]["objectId"])
    assert best["subject"] == "coffee and cream"
    assert [o["subject"] for o in connection.ParseBase.GET(path, where=text("咖啡"))["results"]] == ["冰咖啡很好喝"]

    for where, code in [(text("coffee", **{"$caseSensitive": True}), 107), (text('"coffee'), 107), (text("-coffee"), 107),
                        (json.dumps({"subject": {"$text": {"$search": True}}}), 107), (text("coffee", field="comment"), 102)]:
        with pytest.raises(ResourceRequestBadRequest) as refused:
            connection.ParseBase.GET(path, where=where)
        assert json.loads(refused.value.args[0])["code"] == code, where
