"""Fetch with select/include and the simple queries issue 2 needs: equality, comparison, order, limit, count."""

import pytest


@pytest.fixture
def scores(leancloud, class_name):
    Score = leancloud.Object.extend(class_name)
    rows = [Score(player="p%d" % (i % 3), points=i * 10, rank=10 - i) for i in range(10)]
    leancloud.Object.save_all(rows)
    return Score, rows


def test_equal_to_finds_matching_objects(leancloud, scores):
    Score, _ = scores
    found = leancloud.Query(Score).equal_to("player", "p1").find()
    assert sorted(s.get("points") for s in found) == [10, 40, 70]


def test_greater_than_with_order_and_limit(leancloud, scores):
    Score, _ = scores
    query = leancloud.Query(Score).greater_than("points", 35).ascending("points").limit(3)
    assert [s.get("points") for s in query.find()] == [40, 50, 60]
    query = leancloud.Query(Score).less_than_or_equal_to("points", 50).descending("points").limit(2)
    assert [s.get("points") for s in query.find()] == [50, 40]


def test_count(leancloud, scores):
    Score, _ = scores
    assert leancloud.Query(Score).count() == 10
    assert leancloud.Query(Score).greater_than_or_equal_to("rank", 5).count() == 6


def test_first_and_get(leancloud, scores):
    Score, rows = scores
    first = leancloud.Query(Score).ascending("rank").first()
    assert first.get("rank") == 1
    got = leancloud.Query(Score).get(rows[4].id)
    assert got.get("points") == 40


def test_fetch_with_select_returns_only_those_keys(leancloud, class_name):
    Thing = leancloud.Object.extend(class_name)
    thing = Thing(a=1, b=2, c=3)
    thing.save()
    fresh = Thing.create_without_data(thing.id)
    fresh.fetch(select=["a", "c"])
    assert fresh.get("a") == 1 and fresh.get("c") == 3
    assert fresh.has("b") is False
    assert fresh.created_at == thing.created_at


def test_fetch_with_include_expands_the_pointer(leancloud, class_name):
    Author = leancloud.Object.extend(class_name + "Author")
    Book = leancloud.Object.extend(class_name)
    author = Author(name="Ursula", born=1929)
    book = Book(title="The Dispossessed", author=author, pages=387)
    book.save()

    plain = Book.create_without_data(book.id)
    plain.fetch()
    assert plain.get("author").get("name") is None

    included = Book.create_without_data(book.id)
    included.fetch(select=["author", "title"], include=["author"])
    assert included.get("title") == "The Dispossessed"
    assert included.has("pages") is False
    assert included.get("author").id == author.id
    assert included.get("author").get("name") == "Ursula"
    assert included.get("author").get("born") == 1929
