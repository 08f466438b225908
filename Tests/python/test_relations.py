"""Relation fields: AddRelation/RemoveRelation through the SDK (querying members with $relatedTo is issue 3)."""

import pytest


def test_relation_add_stores_a_relation_descriptor(leancloud, class_name, wire):
    Tag = leancloud.Object.extend(class_name + "Tag")
    tags = [Tag(name="a"), Tag(name="b")]
    leancloud.Object.save_all(tags)
    Post = leancloud.Object.extend(class_name)
    post = Post(title="p")
    post.relation("tags").add(*tags)
    post.save()
    sent = wire[-1].request.body
    assert "AddRelation" in (sent.decode() if isinstance(sent, bytes) else sent)
    raw = leancloud.client.get("/classes/%s/%s" % (class_name, post.id)).json()
    assert raw["tags"] == {"__type": "Relation", "className": Tag._class_name}
    fresh = Post.create_without_data(post.id)
    fresh.fetch()
    assert fresh.relation("tags").target_class_name == Tag._class_name


def test_relation_remove_and_mixed_batch_are_accepted(leancloud, class_name, wire):
    Tag = leancloud.Object.extend(class_name + "Tag")
    a, b, c = Tag(name="a"), Tag(name="b"), Tag(name="c")
    leancloud.Object.save_all([a, b, c])
    Post = leancloud.Object.extend(class_name)
    post = Post(title="p")
    post.relation("tags").add(a, b)
    post.save()
    relation = post.relation("tags")
    relation.remove(a)
    post.save()
    assert wire[-1].status_code == 200
    relation.add(c)
    relation.remove(b)
    post.save()  # one key with adds and removes: {"__op": "Batch", "ops": [...]}
    sent = wire[-1].request.body
    assert '"Batch"' in (sent.decode() if isinstance(sent, bytes) else sent)
    assert wire[-1].status_code == 200


def test_relation_to_a_different_class_is_refused(leancloud, class_name):
    Tag = leancloud.Object.extend(class_name + "Tag")
    Other = leancloud.Object.extend(class_name + "Other")
    tag, other = Tag(name="t"), Other(name="o")
    leancloud.Object.save_all([tag, other])
    Post = leancloud.Object.extend(class_name)
    post = Post()
    post.relation("tags").add(tag)
    post.save()
    raw_op = {"tags": {"__op": "AddRelation", "objects": [{"__type": "Pointer", "className": Other._class_name, "objectId": other.id}]}}
    with pytest.raises(leancloud.LeanCloudError) as error:
        leancloud.client.put("/classes/%s/%s" % (class_name, post.id), raw_op)
    assert error.value.code == 111
