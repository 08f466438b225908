"""Object ACLs and roles, seen by two logged-in SDK users with the app key only (never the master key unless
a test says so)."""

import pytest

FORBIDDEN_WRITE = "Forbidden writing by object's ACL."


def error_of(leancloud, call, *args, **kwargs):
    with pytest.raises(leancloud.LeanCloudError) as error:
        call(*args, **kwargs)
    return error.value


def visible(leancloud, cls, obj):
    """What the current user sees of `obj`: (found by a query, fetched object exists, the fetched title)."""
    found = [o.id for o in leancloud.Query(cls).find()]
    fetched = cls.create_without_data(obj.id)
    fetched.fetch()
    return obj.id in found, fetched.is_existed(), fetched.get("title")


def unique_role(class_name, suffix):
    return "%s_%s" % (class_name, suffix)


def owned_role(leancloud, name, owner):
    """A new Role readable by everyone and writable by `owner` (the SDK's default ACL is public read only, so
    nobody could change such a role afterwards)."""
    acl = leancloud.ACL()
    acl.set_public_read_access(True)
    acl.set_write_access(owner.id, True)
    return leancloud.Role(name, acl)


@pytest.fixture
def pair(leancloud, lc_users):
    """Two signed-up users, alice and bob; nobody is current."""
    alice = lc_users.sign_up()
    bob = lc_users.sign_up()
    lc_users.act_as(None)
    return alice, bob


def test_a_private_object_is_invisible_to_other_users(leancloud, lc_users, pair, class_name, wire):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_read_access(alice.id, True)
    acl.set_write_access(alice.id, True)
    secret = Note(title="alice only", ACL=acl)
    secret.save()
    Note(title="public").save()  # no ACL: everyone
    assert visible(leancloud, Note, secret) == (True, True, "alice only")

    lc_users.act_as(bob)
    assert visible(leancloud, Note, secret) == (False, False, None)
    assert wire[-1].status_code == 200 and wire[-1].json() == {}
    assert [n.get("title") for n in leancloud.Query(Note).find()] == ["public"]
    assert leancloud.Query(Note).count() == 1
    assert leancloud.Query(Note).equal_to("title", "alice only").count() == 0

    lc_users.act_as(None)
    assert visible(leancloud, Note, secret) == (False, False, None)

    leancloud.use_master_key(True)
    assert visible(leancloud, Note, secret) == (True, True, "alice only")
    assert leancloud.Query(Note).count() == 2


def test_a_user_that_cannot_read_cannot_write_or_delete_either(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_read_access(alice.id, True)
    acl.set_write_access(alice.id, True)
    secret = Note(title="alice only", ACL=acl)
    secret.save()

    lc_users.act_as(bob)
    blind = Note.create_without_data(secret.id)
    blind.set("title", "bob was here")
    assert error_of(leancloud, blind.save).code in (101, 403)
    assert error_of(leancloud, Note.create_without_data(secret.id).destroy).code in (101, 403)
    lc_users.act_as(alice)
    assert visible(leancloud, Note, secret) == (True, True, "alice only")


def test_public_read_owner_write(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_public_read_access(True)
    acl.set_write_access(alice.id, True)
    note = Note(title="read me", ACL=acl)
    note.save()

    lc_users.act_as(bob)
    seen = leancloud.Query(Note).equal_to("objectId", note.id).include_acl().first()
    assert seen.get("title") == "read me"
    assert seen.get_acl().get_write_access(alice.id) is True
    assert seen.get_acl().get_public_write_access() is False
    seen.set("title", "bob's now")
    error = error_of(leancloud, seen.save)
    assert (error.code, error.error) == (403, FORBIDDEN_WRITE)
    error = error_of(leancloud, Note.create_without_data(note.id).destroy)
    assert (error.code, error.error) == (403, FORBIDDEN_WRITE)

    lc_users.act_as(None)
    anonymous = leancloud.Query(Note).get(note.id)
    assert anonymous.get("title") == "read me"
    anonymous.set("title", "nobody's now")
    assert error_of(leancloud, anonymous.save).code == 403

    lc_users.act_as(alice)
    mine = leancloud.Query(Note).get(note.id)
    assert mine.get("title") == "read me"
    mine.set("title", "edited by alice")
    mine.save()
    lc_users.act_as(bob)
    assert leancloud.Query(Note).get(note.id).get("title") == "edited by alice"
    lc_users.act_as(alice)
    mine.destroy()
    lc_users.act_as(None)
    assert leancloud.Query(Note).count() == 0


def test_the_owner_can_change_the_acl(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_read_access(alice.id, True)
    acl.set_write_access(alice.id, True)
    note = Note(title="shared later", ACL=acl)
    note.save()
    lc_users.act_as(bob)
    assert visible(leancloud, Note, note)[0] is False

    lc_users.act_as(alice)
    acl.set_read_access(bob.id, True)
    acl.set_write_access(bob.id, True)
    note.set_acl(acl)
    note.save()

    lc_users.act_as(bob)
    assert visible(leancloud, Note, note) == (True, True, "shared later")
    shared = Note.create_without_data(note.id)
    shared.set("title", "bob edited")
    shared.save()
    lc_users.act_as(alice)
    assert visible(leancloud, Note, note) == (True, True, "bob edited")


def test_role_based_read_and_write(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    name = unique_role(class_name, "Editors")
    lc_users.act_as(alice)
    role_acl = leancloud.ACL()
    role_acl.set_public_read_access(True)
    role_acl.set_write_access(alice.id, True)
    editors = leancloud.Role(name, role_acl)
    editors.get_users().add(alice)
    editors.save()

    acl = leancloud.ACL()
    acl.set_role_read_access(name, True)
    acl.set_role_write_access(editors, True)
    note = Note(title="for editors", ACL=acl)
    note.save()
    assert note.get_acl().dump() == {"role:" + name: {"read": True, "write": True}}
    assert visible(leancloud, Note, note) == (True, True, "for editors")

    lc_users.act_as(bob)
    assert visible(leancloud, Note, note) == (False, False, None)

    lc_users.act_as(alice)
    editors.get_users().add(bob)
    editors.save()

    lc_users.act_as(bob)
    assert visible(leancloud, Note, note) == (True, True, "for editors")
    mine = Note.create_without_data(note.id)
    mine.set("title", "edited by an editor")
    mine.save()
    assert leancloud.Query(Note).get(note.id).get("title") == "edited by an editor"

    lc_users.act_as(alice)
    editors.get_users().remove(bob)
    editors.save()
    lc_users.act_as(bob)
    assert visible(leancloud, Note, note) == (False, False, None)


def test_a_read_only_role_member_gets_the_acl_write_error(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    name = unique_role(class_name, "Readers")
    lc_users.act_as(alice)
    readers = leancloud.Role(name)
    readers.get_users().add(bob)
    readers.save()
    acl = leancloud.ACL()
    acl.set_role_read_access(readers, True)
    acl.set_write_access(alice.id, True)
    note = Note(title="read only", ACL=acl)
    note.save()

    lc_users.act_as(bob)
    seen = leancloud.Query(Note).get(note.id)
    assert seen.get("title") == "read only"
    seen.set("title", "changed")
    error = error_of(leancloud, seen.save)
    assert (error.code, error.error) == (403, FORBIDDEN_WRITE)


def test_rights_are_inherited_through_the_roles_relation(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    moderators = owned_role(leancloud, unique_role(class_name, "Moderators"), alice)
    moderators.save()
    admins = owned_role(leancloud, unique_role(class_name, "Admins"), alice)
    admins.get_users().add(bob)
    admins.save()

    acl = leancloud.ACL()
    acl.set_role_read_access(moderators, True)
    acl.set_role_write_access(moderators, True)
    note = Note(title="moderated", ACL=acl)
    note.save()

    lc_users.act_as(bob)
    assert visible(leancloud, Note, note) == (False, False, None)

    lc_users.act_as(alice)
    moderators.get_roles().add(admins)  # admins get the moderators' rights
    moderators.save()

    lc_users.act_as(bob)
    assert visible(leancloud, Note, note) == (True, True, "moderated")
    edit = Note.create_without_data(note.id)
    edit.set("title", "moderated by an admin")
    edit.save()
    assert leancloud.Query(Note).get(note.id).get("title") == "moderated by an admin"

    # Inheritance goes one way: moderators do not get the admins' rights.
    lc_users.act_as(alice)
    moderators.get_users().add(alice)
    moderators.save()
    admin_acl = leancloud.ACL()
    admin_acl.set_role_read_access(admins, True)
    admin_only = Note(title="admins only", ACL=admin_acl)
    admin_only.save()
    assert visible(leancloud, Note, admin_only)[0] is False
    lc_users.act_as(bob)
    assert visible(leancloud, Note, admin_only) == (True, True, "admins only")


def test_inheritance_over_two_levels(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    top = owned_role(leancloud, unique_role(class_name, "Top"), alice)
    top.save()
    middle = owned_role(leancloud, unique_role(class_name, "Middle"), alice)
    middle.save()
    bottom = leancloud.Role(unique_role(class_name, "Bottom"))
    bottom.get_users().add(bob)
    bottom.save()
    top.get_roles().add(middle)
    top.save()
    middle.get_roles().add(bottom)
    middle.save()
    acl = leancloud.ACL()
    acl.set_role_read_access(top, True)
    note = Note(title="top secret", ACL=acl)
    note.save()
    lc_users.act_as(bob)
    assert visible(leancloud, Note, note) == (True, True, "top secret")


def test_user_get_roles(leancloud, lc_users, pair, class_name, wire):
    alice, bob = pair
    lc_users.act_as(alice)
    names = [unique_role(class_name, s) for s in ("One", "Two", "Three")]
    for index, name in enumerate(names):
        role = leancloud.Role(name)
        role.get_users().add(alice)
        if index < 2:
            role.get_users().add(bob)
        role.save()

    roles = bob.get_roles()
    assert wire[-1].request.path_url.startswith("/1.1/classes/_Role?")
    # reverse_query builds Query("_Role"), so the SDK hands back plain `_Role` objects, not Role instances.
    assert sorted(r.get("name") for r in roles) == sorted(names[:2])
    assert all(r._class_name == "_Role" for r in roles)
    assert sorted(r.get("name") for r in alice.get_roles()) == sorted(names)
    lc_users.act_as(bob)
    loner = lc_users.sign_up()
    assert loner.get_roles() == []


def test_role_members_are_a_relation_of_users(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    lc_users.act_as(alice)
    role = owned_role(leancloud, unique_role(class_name, "Team"), alice)
    role.get_users().add(alice)
    role.get_users().add(bob)
    role.save()
    child = leancloud.Role(unique_role(class_name, "SubTeam"))
    child.save()
    role.get_roles().add(child)
    role.save()

    fetched = leancloud.Query(leancloud.Role).get(role.id)
    assert fetched.get_name() == role.get_name()
    assert [r.get("name") for r in fetched.get_roles().query.find()] == [child.get_name()]
    leancloud.use_master_key(True)  # finding _User objects needs the master key, relation queries included
    members = fetched.get_users().query.find()
    assert sorted(u.id for u in members) == sorted([alice.id, bob.id])
    leancloud.use_master_key(False)
    raw_role = leancloud.client.get("/classes/_Role/" + role.id).json()
    assert raw_role["users"] == {"__type": "Relation", "className": "_User"}
    assert raw_role["roles"] == {"__type": "Relation", "className": "_Role"}


def test_a_role_without_an_acl_is_refused(leancloud, lc_users, class_name, wire):
    lc_users.sign_up()
    bare = leancloud.Object.extend("_Role")(name=unique_role(class_name, "Bare"))
    error = error_of(leancloud, bare.save)
    assert (error.code, error.error) == (1, "Role ACL is required.")
    assert wire[-1].status_code == 400
    assert leancloud.Query(leancloud.Role).equal_to("name", unique_role(class_name, "Bare")).count() == 0


def test_role_names_are_checked_unique_and_immutable(leancloud, lc_users, class_name):
    lc_users.sign_up()
    name = unique_role(class_name, "Unique")
    role = leancloud.Role(name)
    role.save()
    assert error_of(leancloud, leancloud.Role(name).save).code == 137

    role.set_name(name + "_renamed")
    assert error_of(leancloud, role.save).code == 139  # Parse's "can only be set before it has been saved"
    assert leancloud.Query(leancloud.Role).get(role.id).get_name() == name

    acl = {"*": {"read": True}}
    # The SDK refuses spaces (its own regex), and LeanCloud's clients allow them; so these go through the client.
    spaced = leancloud.client.post("/classes/_Role", {"name": name + " with-space", "ACL": acl})
    assert spaced.status_code == 201
    for bad in ("bad!name", "bad.name", "bad/name", ""):
        error = error_of(leancloud, leancloud.client.post, "/classes/_Role", {"name": bad, "ACL": acl})
        assert error.code == 139, bad
    assert error_of(leancloud, leancloud.client.post, "/classes/_Role", {"ACL": acl}).code == 139


def test_the_roles_endpoint_is_an_alias(leancloud, lc_users, class_name):
    user = lc_users.sign_up()
    name = unique_role(class_name, "Alias")
    created = leancloud.client.post("/roles", {
        "name": name, "ACL": {"*": {"read": True}, user.id: {"write": True}},
        "users": {"__op": "AddRelation", "objects": [{"__type": "Pointer", "className": "_User", "objectId": user.id}]},
    })
    assert created.status_code == 201
    role_id = created.json()["objectId"]
    fetched = leancloud.Query(leancloud.Role).get(role_id)
    assert fetched.get_name() == name
    assert [r.id for r in user.get_roles()] == [role_id]
    assert leancloud.client.get("/roles/" + role_id).json()["name"] == name


def test_a_role_acl_protects_the_role_itself(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_public_read_access(True)
    acl.set_write_access(alice.id, True)
    role = leancloud.Role(unique_role(class_name, "Guarded"), acl)
    role.save()
    lc_users.act_as(bob)
    mine = leancloud.Query(leancloud.Role).get(role.id)
    mine.get_users().add(bob)  # bob tries to join
    error = error_of(leancloud, mine.save)
    assert (error.code, error.error) == (403, FORBIDDEN_WRITE)
    assert bob.get_roles() == []


@pytest.fixture
def private_note(leancloud, lc_users, pair, class_name):
    """Alice's private object (class `class_name`+"Secret"), pointed at from a public one (class `class_name`)."""
    alice, bob = pair
    Secret = leancloud.Object.extend(class_name + "Secret")
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_read_access(alice.id, True)
    acl.set_write_access(alice.id, True)
    secret = Secret(title="alice only", pin=1234, ACL=acl)
    secret.save()
    note = Note(title="public", secret=secret)
    note.save()
    lc_users.act_as(bob)
    return Secret, Note, secret, note


def test_include_does_not_expand_an_unreadable_object(leancloud, private_note, wire):
    Secret, Note, secret, note = private_note
    found = leancloud.Query(Note).include("secret").find()
    assert [n.get("title") for n in found] == ["public"]
    raw_pointer = wire[-1].json()["results"][0].get("secret")
    assert raw_pointer is None or ("title" not in raw_pointer and "pin" not in raw_pointer)
    fetched = Note.create_without_data(note.id)
    fetched.fetch(include=["secret"])
    raw_pointer = wire[-1].json().get("secret")
    assert raw_pointer is None or ("title" not in raw_pointer and "pin" not in raw_pointer)


def test_sub_queries_do_not_see_unreadable_objects(leancloud, private_note):
    Secret, Note, secret, note = private_note
    inner = leancloud.Query(Secret).equal_to("pin", 1234)
    assert leancloud.Query(Note).matches_query("secret", inner).find() == []
    assert [n.id for n in leancloud.Query(Note).does_not_match_query("secret", inner).find()] == [note.id]
    assert leancloud.Query(Note).matches_key_in_query("objectId", "objectId", inner).find() == []


def test_cloud_query_respects_the_acl(leancloud, lc_users, private_note, class_name):
    Secret, Note, secret, note = private_note
    result = leancloud.Query.do_cloud_query("select * from %s" % (class_name + "Secret"))
    assert list(result.results) == []
    lc_users.act_as(None)
    leancloud.use_master_key(True)
    result = leancloud.Query.do_cloud_query("select * from %s" % (class_name + "Secret"))
    assert [s.id for s in result.results] == [secret.id]


def test_batch_writes_respect_the_acl(leancloud, private_note, lc_users, pair, class_name):
    alice, bob = pair
    Secret, Note, secret, note = private_note
    Shared = leancloud.Object.extend(class_name + "Shared")
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_public_read_access(True)
    acl.set_write_access(alice.id, True)
    shared = Shared(title="alice's", ACL=acl)
    shared.save()

    lc_users.act_as(bob)
    mine = Shared(title="bob's")
    mine.save()
    mine.set("title", "bob's, edited")
    theirs = Shared.create_without_data(shared.id)
    theirs.set("title", "bob was here")
    error = error_of(leancloud, leancloud.Object.save_all, [mine, theirs])  # one batch; the SDK raises the first error
    assert (error.code, error.error) == (403, FORBIDDEN_WRITE)
    assert leancloud.Query(Shared).get(mine.id).get("title") == "bob's, edited"  # the allowed half went through
    batch = leancloud.client.post("/batch", {"requests": [
        {"method": "PUT", "path": "/1.1/classes/%s/%s" % (Shared._class_name, shared.id), "body": {"title": "x"}},
        {"method": "DELETE", "path": "/1.1/classes/%s/%s" % (Shared._class_name, shared.id)},
        {"method": "PUT", "path": "/1.1/classes/%s/%s" % (Shared._class_name, mine.id), "body": {"title": "y"}},
    ]}).json()
    assert batch[0]["error"]["code"] == 403 and batch[1]["error"]["code"] == 403
    assert "success" in batch[2]
    assert leancloud.Query(Shared).get(shared.id).get("title") == "alice's"
    assert leancloud.Query(Shared).get(mine.id).get("title") == "y"


def test_operations_are_writes_too(leancloud, lc_users, pair, class_name):
    alice, bob = pair
    Note = leancloud.Object.extend(class_name)
    lc_users.act_as(alice)
    acl = leancloud.ACL()
    acl.set_public_read_access(True)
    acl.set_write_access(alice.id, True)
    note = Note(votes=0, tags=[], ACL=acl)
    note.save()
    lc_users.act_as(bob)
    for change in (lambda n: n.increment("votes"), lambda n: n.add("tags", "x"), lambda n: n.unset("votes")):
        target = Note.create_without_data(note.id)
        change(target)
        assert error_of(leancloud, target.save).code == 403
    seen = leancloud.Query(Note).get(note.id)
    assert (seen.get("votes"), seen.get("tags")) == (0, [])
