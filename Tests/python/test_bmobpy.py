"""Bmob's Python SDK (bmobpy) against Cirrus: saves, its query filters, count and the statistics calls."""

import pytest
from bmobpy.bmob import Bmob, BmobGeoPoint, BmobPointer, BmobQuery

from conftest import APP_ID, APP_KEY


@pytest.fixture
def bmob(cirrus):
    client = Bmob(APP_ID, APP_KEY)
    client.resetDomain(cirrus.url)
    return client


@pytest.fixture
def scores(bmob, class_name):
    rows = [
        {"player": "ann", "score": 10, "level": 1, "tags": ["a", "b"]},
        {"player": "ann", "score": 30, "level": 2, "tags": ["b"]},
        {"player": "bob", "score": 20, "level": 1, "tags": []},
        {"player": "bob", "score": 50, "level": 3},
        {"player": "cy", "score": 5, "level": 1, "nick": "c"},
    ]
    for row in rows:
        saved = bmob.save(class_name, row)
        assert saved is not None and saved.objectId, bmob.error
    return rows


def players(found):
    return sorted((r["player"], r["score"]) for r in found)


QUERY_CASES = [
    ("equal", lambda q: q.addWhereEqualTo("player", "ann"), [("ann", 10), ("ann", 30)]),
    ("equal None means missing", lambda q: q.addWhereEqualTo("nick"), [("ann", 10), ("ann", 30), ("bob", 20), ("bob", 50)]),
    ("not equal", lambda q: q.addWhereNotEqualTo("player", "bob"), [("ann", 10), ("ann", 30), ("cy", 5)]),
    ("greater than", lambda q: q.addWhereGreaterThan("score", 20), [("ann", 30), ("bob", 50)]),
    ("greater or equal", lambda q: q.addWhereGreaterThanOrEqualTo("score", 20), [("ann", 30), ("bob", 20), ("bob", 50)]),
    ("less than", lambda q: q.addWhereLessThan("score", 10), [("cy", 5)]),
    ("less or equal", lambda q: q.addWhereLessThanOrEqualTo("score", 10), [("ann", 10), ("cy", 5)]),
    ("exists", lambda q: q.addWhereExists("nick"), [("cy", 5)]),
    ("not exists", lambda q: q.addWhereNotExists("tags"), [("bob", 50), ("cy", 5)]),
    ("contained in", lambda q: q.addWhereContainedIn("player", ["cy", "bob"]), [("bob", 20), ("bob", 50), ("cy", 5)]),
    ("not contained in", lambda q: q.addWhereNotContainedIn("level", [1]), [("ann", 30), ("bob", 50)]),
    ("contains all", lambda q: q.addWhereContainsAll("tags", ["a", "b"]), [("ann", 10)]),
    ("contains all of one value, not in an array (seed 004 L794)", lambda q: q.addWhereContainsAll("tags", "b"), [("ann", 10), ("ann", 30)]),
    ("regex", lambda q: q.addWhereStrContains("player", "^b"), [("bob", 20), ("bob", 50)]),
    ("two filters are $and", lambda q: q.addWhereEqualTo("player", "ann").addWhereGreaterThan("score", 15), [("ann", 30)]),
]


@pytest.mark.parametrize("label,build,expected", QUERY_CASES, ids=[c[0] for c in QUERY_CASES])
def test_each_bmob_query_filter(bmob, scores, class_name, label, build, expected):
    query = build(BmobQuery())
    assert players(bmob.findObjects(class_name, where=query)) == expected
    assert bmob.count(class_name, where=build(BmobQuery())) == len(expected)


def test_order_limit_skip_and_keys(bmob, scores, class_name):
    found = bmob.findObjects(class_name, order="-score", limit=2, skip=1)
    assert [r["score"] for r in found] == [30, 20]
    found = bmob.findObjects(class_name, order="level,-score", keys="player,score", limit=3)
    assert [(r["player"], r["score"]) for r in found] == [("bob", 20), ("ann", 10), ("cy", 5)]
    assert all("level" not in r for r in found)


def test_statistics(bmob, scores, class_name):
    assert bmob.sum(class_name, "score") == 115
    assert bmob.max(class_name, "score") == 50
    assert bmob.min(class_name, "score") == 5
    assert bmob.mean(class_name, "score") == pytest.approx(23.0)
    both = bmob.sum(class_name, ["score", "level"])
    assert both == {"_sumScore": 115, "_sumLevel": 8}
    ann = BmobQuery().addWhereEqualTo("player", "ann")
    assert bmob.sum(class_name, "score", where=ann) == 40


def test_group_by_with_count_and_having(bmob, scores, class_name):
    groups = bmob.findObjects(class_name, groupby="player", groupcount=True)
    assert sorted((g["player"], g["_count"]) for g in groups) == [("ann", 2), ("bob", 2), ("cy", 1)]
    # bmobpy writes a dict as str(dict), a Python literal; Cirrus reads it on the Bmob path.
    crowded = bmob.findObjects(class_name, groupby="player", groupcount=True, having={"_count": {"$gt": 1}})
    assert sorted((g["player"], g["_count"]) for g in crowded) == [("ann", 2), ("bob", 2)]


def test_pointer_related_and_geo_filters(bmob, class_name):
    author = bmob.save(class_name + "Author", {"name": "lu", "born": 1900})
    other = bmob.save(class_name + "Author", {"name": "mo"})
    bmob.save(class_name, {"title": "one", "author": BmobPointer(class_name + "Author", author.objectId),
                           "at": BmobGeoPoint(39.9, 116.4)})
    bmob.save(class_name, {"title": "two", "author": BmobPointer(class_name + "Author", other.objectId),
                           "at": BmobGeoPoint(31.2, 121.5)})
    mine = BmobQuery().addWhereEqualTo("author", BmobPointer(class_name + "Author", author.objectId))
    assert [r["title"] for r in bmob.findObjects(class_name, where=mine)] == ["one"]
    near = BmobQuery().addWhereNear("at", BmobGeoPoint(39.0, 117.0), maxKM=200)
    assert [r["title"] for r in bmob.findObjects(class_name, where=near)] == ["one"]
    box = BmobQuery().addWhereWithinGeoBox("at", BmobGeoPoint(30.0, 120.0), BmobGeoPoint(32.0, 122.0))
    assert [r["title"] for r in bmob.findObjects(class_name, where=box)] == ["two"]
    included = bmob.findObjects(class_name, where=mine, include="author")
    assert included[0]["author"]["name"] == "lu"
    assert included[0]["author"]["born"] == 1900
    picked = bmob.findObjects(class_name, where=mine, include="author[name]")
    assert picked[0]["author"]["name"] == "lu" and "born" not in picked[0]["author"]


def test_a_bad_query_reports_the_error(bmob, class_name):
    bad = BmobQuery().putWhereFilter("score", "x", "$bogus")
    assert bmob.findObjects(class_name, where=bad) == []
    assert bmob.error["code"] is not None and bmob.error["error"]
