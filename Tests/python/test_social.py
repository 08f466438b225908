"""LeanCloud's in-app social features through the LeanCloud Python SDK: follow and unfollow (`User.follow`,
`User.unfollow`), the follower and followee queries, statuses sent to followers and as private messages
(`Status.send_to_followers`, `Status.send_private_status`), the inbox query (`InboxQuery`), unread counts, and deleting a
status from every inbox. docs/SOCIAL.md describes the endpoints."""

import json

import pytest


def session_headers(user):
    return {"X-LC-Id": "pytest-app-id", "X-LC-Key": "pytest-app-key", "X-LC-Session": user.get_session_token()}


def test_follow_and_unfollow_through_the_sdk(leancloud, lc_users, wire):
    star = lc_users.sign_up()
    fan = lc_users.sign_up()  # the current user
    fan.follow(star.id)
    follow = wire[-1]
    assert follow.request.method == "POST"
    assert follow.request.path_url == "/1.1/users/%s/friendship/%s" % (fan.id, star.id)
    assert follow.status_code == 200 and follow.json() == {}

    followers = leancloud.User.create_follower_query(star.id).find()
    assert [user.id for user in followers] == [fan.id]
    followees = leancloud.User.create_followee_query(fan.id).find()
    assert [user.id for user in followees] == [star.id]

    fan.unfollow(star.id)
    assert leancloud.User.create_follower_query(star.id).find() == []
    with pytest.raises(leancloud.LeanCloudError) as error:
        fan.unfollow(star.id)
    assert error.value.code == 221


def test_a_user_cannot_follow_for_another(leancloud, lc_users, raw):
    star = lc_users.sign_up()
    other = lc_users.sign_up()
    fan = lc_users.sign_up()
    reply = raw.request("POST", "/1.1/users/%s/friendship/%s" % (other.id, star.id), headers=session_headers(fan), json={})
    assert reply.status_code == 403
    assert leancloud.User.create_follower_query(star.id).find() == []


def test_a_status_reaches_followers_inboxes_with_counts_and_leaves_them_when_deleted(leancloud, lc_users):
    writer = lc_users.sign_up()
    readers = [lc_users.sign_up() for _ in range(3)]
    for reader in readers:
        lc_users.act_as(reader)
        reader.follow(writer.id)

    lc_users.act_as(writer)
    first = leancloud.Status(message="first status", image="https://example.com/a.png")
    first.send_to_followers()
    second = leancloud.Status(message="second status")
    second.send_to_followers()
    assert first.id and second.id and first.id != second.id

    for reader in readers:
        lc_users.act_as(reader)
        statuses = leancloud.InboxQuery().owner(reader).find()
        assert [status.get("message") for status in statuses] == ["second status", "first status"]
        assert [status.get("messageId") for status in statuses] == [2, 1]
        assert statuses[1].id == first.id and statuses[1].get("image") == "https://example.com/a.png"
        counted = leancloud.Status.count_unread_statuses(reader)
        assert (counted.total, counted.unread) == (2, 2)
        newer = leancloud.InboxQuery().owner(reader).since_id(1).find()
        assert [status.id for status in newer] == [second.id]

    lc_users.act_as(writer)
    mine = leancloud.InboxQuery().owner(writer).find()
    assert len(mine) == 2, "the sender's own timeline holds its statuses"
    first.destroy()
    lc_users.act_as(readers[0])
    assert [status.id for status in leancloud.InboxQuery().owner(readers[0]).find()] == [second.id]
    assert leancloud.Status.count_unread_statuses(readers[0]).total == 1


def test_a_private_status_reaches_its_recipient_alone(leancloud, lc_users, raw):
    recipient = lc_users.sign_up()
    bystander = lc_users.sign_up()
    sender = lc_users.sign_up()
    status = leancloud.Status(message="just for you")
    status.send_private_status(recipient)

    lc_users.act_as(recipient)
    private = leancloud.InboxQuery().owner(recipient).inbox_type("private").find()
    assert [item.get("message") for item in private] == ["just for you"]
    assert leancloud.InboxQuery().owner(recipient).find() == []

    lc_users.act_as(bystander)
    assert leancloud.InboxQuery().owner(bystander).inbox_type("private").find() == []
    snoop = raw.request(
        "GET", "/1.1/subscribe/statuses",
        params={"owner": json.dumps({"__type": "Pointer", "className": "_User", "objectId": recipient.id}), "inboxType": "private"},
        headers=session_headers(bystander),
    )
    assert snoop.status_code == 403
    read = raw.request("GET", "/1.1/classes/_Status/" + status.id, headers=session_headers(bystander))
    assert read.json() == {}, "a private status is not readable outside its inboxes"
    assert sender.id
