"""Object.save_all and Object.destroy_all: one POST /1.1/batch each."""

import pytest


def test_save_all_creates_every_object_in_one_request(leancloud, class_name, wire):
    Item = leancloud.Object.extend(class_name)
    items = [Item(position=i) for i in range(5)]
    leancloud.Object.save_all(items)
    assert [r.request.path_url for r in wire] == ["/1.1/batch"]
    assert len({item.id for item in items}) == 5
    for position, item in enumerate(items):
        fresh = Item.create_without_data(item.id)
        fresh.fetch()
        assert fresh.get("position") == position
        assert fresh.created_at == item.created_at


def test_save_all_mixes_creates_and_updates(leancloud, class_name):
    Item = leancloud.Object.extend(class_name)
    existing = Item(position=0, label="old")
    existing.save()
    existing.set("label", "new")
    existing.increment("position", 10)
    fresh_item = Item(position=1, label="fresh")
    leancloud.Object.save_all([existing, fresh_item])
    found = {item.get("label"): item.get("position") for item in leancloud.Query(Item).find()}
    assert found == {"new": 10, "fresh": 1}


def test_a_failing_item_does_not_stop_the_others(leancloud, class_name, wire):
    Item = leancloud.Object.extend(class_name)
    Item(position=0).save()
    good_before, bad, good_after = Item(position=1), Item(position="not a number"), Item(position=2)
    with pytest.raises(leancloud.LeanCloudError) as error:
        leancloud.Object.save_all([good_before, bad, good_after])
    assert error.value.code == 111
    reply = wire[-1].json()
    assert [sorted(entry) for entry in reply] == [["success"], ["error"], ["success"]]
    assert good_before.id is not None and good_after.id is not None and bad.id is None
    assert sorted(item.get("position") for item in leancloud.Query(Item).find()) == [0, 1, 2]


def test_destroy_all_removes_every_object_in_one_request(leancloud, class_name, wire):
    Item = leancloud.Object.extend(class_name)
    items = [Item(position=i) for i in range(4)]
    leancloud.Object.save_all(items)
    keep = Item(position=99)
    keep.save()
    wire.clear()
    leancloud.Object.destroy_all(items)
    assert [r.request.path_url for r in wire] == ["/1.1/batch"]
    assert [item.get("position") for item in leancloud.Query(Item).find()] == [99]
