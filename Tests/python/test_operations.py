"""Atomic operations, unset, fetch_when_save and conditional saves with `where`."""

from concurrent.futures import ThreadPoolExecutor

import pytest


def fetched(obj):
    fresh = type(obj).create_without_data(obj.id)
    fresh.fetch()
    return fresh


def test_increment_and_decrement_are_applied_on_the_server(leancloud, class_name):
    Counter = leancloud.Object.extend(class_name)
    counter = Counter(hits=10, ratio=1.5)
    counter.save()
    other = Counter.create_without_data(counter.id)
    other.increment("hits", 5)
    other.save()
    counter.increment("hits", -3)
    counter.increment("ratio", 0.25)
    counter.save()
    fresh = fetched(counter)
    assert fresh.get("hits") == 12
    assert fresh.get("ratio") == 1.75


def test_increment_of_a_missing_field_starts_from_zero(leancloud, class_name):
    Counter = leancloud.Object.extend(class_name)
    counter = Counter(name="c")
    counter.save()
    counter.increment("hits", 7)
    counter.save()
    assert fetched(counter).get("hits") == 7


def test_concurrent_increments_are_all_counted(leancloud, class_name):
    Counter = leancloud.Object.extend(class_name)
    counter = Counter(hits=0)
    counter.save()

    def bump(_):
        mine = Counter.create_without_data(counter.id)
        mine.increment("hits", 1)
        mine.save()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(bump, range(80)))
    assert fetched(counter).get("hits") == 80


def test_add_add_unique_and_remove_change_arrays(leancloud, class_name):
    Post = leancloud.Object.extend(class_name)
    post = Post(tags=["swift", "sqlite"])
    post.save()
    post.add("tags", "swift")
    post.save()
    assert fetched(post).get("tags") == ["swift", "sqlite", "swift"]
    post.add_unique("tags", "sqlite")
    post.save()
    post.add_unique("tags", "wal")
    post.save()
    assert fetched(post).get("tags") == ["swift", "sqlite", "swift", "wal"]
    post.remove("tags", "swift")
    post.save()
    assert fetched(post).get("tags") == ["sqlite", "wal"]


def test_array_operations_compare_pointers_by_class_and_id(leancloud, class_name):
    Member = leancloud.Object.extend(class_name + "Member")
    first, second = Member(name="first"), Member(name="second")
    leancloud.Object.save_all([first, second])
    Team = leancloud.Object.extend(class_name)
    team = Team(members=[first])
    team.save()
    team.add_unique("members", Member.create_without_data(first.id))
    team.save()
    team.add_unique("members", second)
    team.save()
    assert [m.id for m in fetched(team).get("members")] == [first.id, second.id]
    team.remove("members", Member.create_without_data(first.id))
    team.save()
    assert [m.id for m in fetched(team).get("members")] == [second.id]


def test_bit_operations(leancloud, class_name):
    Flags = leancloud.Object.extend(class_name)
    flags = Flags(a=0b1100, b=0b1100, c=0b1100)
    flags.save()
    flags.bit_and("a", 0b1010)
    flags.bit_or("b", 0b0011)
    flags.bit_xor("c", 0b0110)
    flags.save()
    fresh = fetched(flags)
    assert (fresh.get("a"), fresh.get("b"), fresh.get("c")) == (0b1000, 0b1111, 0b1010)


def test_unset_deletes_the_field(leancloud, class_name):
    Thing = leancloud.Object.extend(class_name)
    thing = Thing(keep=1, drop="me")
    thing.save()
    thing.unset("drop")
    thing.save()
    fresh = fetched(thing)
    assert fresh.has("drop") is False
    assert fresh.get("keep") == 1


def test_fetch_when_save_returns_the_servers_values(leancloud, class_name):
    Counter = leancloud.Object.extend(class_name)
    counter = Counter(hits=1)
    counter.save()
    elsewhere = Counter.create_without_data(counter.id)
    elsewhere.increment("hits", 5)
    elsewhere.save()

    counter.increment("hits", 1)
    counter.save()
    assert counter.get("hits") == 2  # the SDK's own guess, without fetch_when_save
    counter.increment("hits", 1)
    counter.save(fetch_when_save=True)
    assert counter.get("hits") == 8


def test_fetch_when_save_on_create_returns_every_field(leancloud, class_name, wire):
    Thing = leancloud.Object.extend(class_name)
    thing = Thing(title="t", score=3)
    thing.save(fetch_when_save=True)
    reply = wire[-1].json()
    assert reply["title"] == "t"
    assert reply["score"] == 3
    assert reply["objectId"] == thing.id


def test_save_with_a_matching_where_updates(leancloud, class_name):
    Account = leancloud.Object.extend(class_name)
    account = Account(balance=100, owner="a+b:c,d")
    account.save()
    account.increment("balance", -30)
    condition = leancloud.Query(Account).greater_than_or_equal_to("balance", 30).equal_to("owner", "a+b:c,d")
    account.save(where=condition)
    assert fetched(account).get("balance") == 70


def test_save_with_a_where_that_does_not_match_fails_with_305_and_changes_nothing(leancloud, class_name):
    Account = leancloud.Object.extend(class_name)
    account = Account(balance=10)
    account.save()
    account.increment("balance", -30)
    with pytest.raises(leancloud.LeanCloudError) as error:
        account.save(where=leancloud.Query(Account).greater_than_or_equal_to("balance", 30))
    assert error.value.code == 305
    assert fetched(account).get("balance") == 10
