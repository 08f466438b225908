"""Every operator of the LeanCloud Python SDK's Query API, CQL through do_cloud_query, relation queries and scan."""

import datetime

import pytest


@pytest.fixture
def people(leancloud, class_name):
    """Six objects with strings, numbers, arrays, dates, nested objects and a field some of them lack."""
    Person = leancloud.Object.extend(class_name)
    base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    rows = [
        Person(name="Ada", age=36, tags=["math", "poetry"], born=base, address={"city": "London", "zip": 1}),
        Person(name="alan", age=41, tags=["math", "crypto", "running"], born=base + datetime.timedelta(days=1)),
        Person(name="Grace", age=85, tags=["navy"], born=base + datetime.timedelta(days=2), address={"city": "NYC", "zip": 2}),
        Person(name="Edsger", age=72, tags=[], born=base + datetime.timedelta(days=3)),
        Person(name="Barbara", age=30.5, tags=["math"], born=base + datetime.timedelta(days=4), address={"city": "London", "zip": 3}),
        Person(name="Ken", nickname="k", born=base + datetime.timedelta(days=5)),
    ]
    leancloud.Object.save_all(rows)
    return Person, rows, base


def names(objects):
    return sorted(o.get("name") for o in objects)


def q(leancloud, person):
    return leancloud.Query(person)


OPERATOR_CASES = [
    ("equal_to", lambda q: q.equal_to("name", "Ada"), ["Ada"]),
    ("equal_to on an array means contains", lambda q: q.equal_to("tags", "math"), ["Ada", "Barbara", "alan"]),
    ("not_equal_to matches missing fields", lambda q: q.not_equal_to("age", 36), ["Barbara", "Edsger", "Grace", "Ken", "alan"]),
    ("less_than", lambda q: q.less_than("age", 36), ["Barbara"]),
    ("less_than_or_equal_to", lambda q: q.less_than_or_equal_to("age", 36), ["Ada", "Barbara"]),
    ("greater_than", lambda q: q.greater_than("age", 72), ["Grace"]),
    ("greater_than_or_equal_to", lambda q: q.greater_than_or_equal_to("age", 72), ["Edsger", "Grace"]),
    ("contained_in", lambda q: q.contained_in("name", ["Ada", "Ken", "Nobody"]), ["Ada", "Ken"]),
    ("not_contained_in", lambda q: q.not_contained_in("name", ["Ada", "Ken"]), ["Barbara", "Edsger", "Grace", "alan"]),
    ("contains_all", lambda q: q.contains_all("tags", ["math", "crypto"]), ["alan"]),
    ("exists", lambda q: q.exists("address"), ["Ada", "Barbara", "Grace"]),
    ("does_not_exist", lambda q: q.does_not_exist("age"), ["Ken"]),
    ("size_equal_to", lambda q: q.size_equal_to("tags", 2), ["Ada"]),
    ("size_equal_to zero", lambda q: q.size_equal_to("tags", 0), ["Edsger"]),
    ("matched", lambda q: q.matched("name", "^[A-G]"), ["Ada", "Barbara", "Edsger", "Grace"]),
    ("matched ignoring case", lambda q: q.matched("name", "^a", ignore_case=True), ["Ada", "alan"]),
    ("matched with lookahead", lambda q: q.matched("name", "^(?=.*a)(?!.*e)"), ["Ada", "Barbara", "alan"]),
    ("contains", lambda q: q.contains("name", "ar"), ["Barbara"]),
    ("matched with \\Q…\\E quoting", lambda q: q.matched("name", "^\\QA.a\\E"), []),
    ("startswith sends the text as a regex", lambda q: q.startswith("name", "A.a"), ["Ada"]),
    ("startswith", lambda q: q.startswith("name", "Ed"), ["Edsger"]),
    ("endswith", lambda q: q.endswith("name", "ce"), ["Grace"]),
    ("dot notation into a nested object", lambda q: q.equal_to("address.city", "London"), ["Ada", "Barbara"]),
    ("nested number comparison", lambda q: q.greater_than("address.zip", 1), ["Barbara", "Grace"]),
]


@pytest.mark.parametrize("label,build,expected", OPERATOR_CASES, ids=[c[0] for c in OPERATOR_CASES])
def test_each_query_operator_finds_what_leancloud_would(leancloud, people, label, build, expected):
    Person, _, _ = people
    assert names(build(q(leancloud, Person)).find()) == expected
    assert build(q(leancloud, Person)).count() == len(expected)


def test_date_comparisons(leancloud, people):
    Person, _, base = people
    found = q(leancloud, Person).greater_than("born", base + datetime.timedelta(days=3)).find()
    assert names(found) == ["Barbara", "Ken"]
    found = q(leancloud, Person).less_than_or_equal_to("born", base + datetime.timedelta(days=1)).find()
    assert names(found) == ["Ada", "alan"]


def test_or_and_and_combine_queries(leancloud, people):
    Person, _, _ = people
    young = q(leancloud, Person).less_than("age", 37)
    old = q(leancloud, Person).greater_than("age", 80)
    assert names(leancloud.Query.or_(young, old).find()) == ["Ada", "Barbara", "Grace"]
    mathy = q(leancloud, Person).equal_to("tags", "math")
    over_35 = q(leancloud, Person).greater_than("age", 35)
    assert names(leancloud.Query.and_(mathy, over_35).find()) == ["Ada", "alan"]


def test_order_skip_limit_select_and_first(leancloud, people):
    Person, _, _ = people
    query = q(leancloud, Person).exists("age").descending("age").skip(1).limit(2)
    assert [p.get("name") for p in query.find()] == ["Edsger", "alan"]
    query = q(leancloud, Person).ascending("nickname").add_descending("age").limit(3)
    assert [p.get("name") for p in query.find()] == ["Grace", "Edsger", "alan"]
    chosen = q(leancloud, Person).equal_to("name", "Ada").select("age").first()
    assert chosen.get("age") == 36 and chosen.get("name") is None


def test_sub_queries_match_on_pointers_and_keys(leancloud, people, class_name):
    Person, rows, _ = people
    Book = leancloud.Object.extend(class_name + "Book")
    books = [Book(title="Notes", author=rows[0], year=1843), Book(title="Compilers", author=rows[4], year=1952),
             Book(title="Go To", author=rows[3], year=1968)]
    leancloud.Object.save_all(books)
    londoners = q(leancloud, Person).equal_to("address.city", "London")
    by_londoners = leancloud.Query(Book).matches_query("author", londoners).find()
    assert sorted(b.get("title") for b in by_londoners) == ["Compilers", "Notes"]
    others = leancloud.Query(Book).does_not_match_query("author", londoners).find()
    assert [b.get("title") for b in others] == ["Go To"]

    Year = leancloud.Object.extend(class_name + "Year")
    leancloud.Object.save_all([Year(value=1843), Year(value=1968)])
    years = leancloud.Query(Year)
    matched = leancloud.Query(Book).matches_key_in_query("year", "value", years).find()
    assert sorted(b.get("title") for b in matched) == ["Go To", "Notes"]
    unmatched = leancloud.Query(Book).does_not_match_key_in_query("year", "value", years).find()
    assert [b.get("title") for b in unmatched] == ["Compilers"]


def test_include_expands_pointers_in_a_query(leancloud, people, class_name):
    Person, rows, _ = people
    Book = leancloud.Object.extend(class_name + "Book")
    Book(title="Notes", author=rows[0], editor=rows[2]).save()
    found = leancloud.Query(Book).include("author", "editor").first()
    assert found.get("author").get("name") == "Ada"
    assert found.get("editor").get("age") == 85


def test_geo_queries(leancloud, class_name):
    Place = leancloud.Object.extend(class_name)
    GeoPoint = leancloud.GeoPoint
    beijing, shanghai, tianjin = GeoPoint(39.9042, 116.4074), GeoPoint(31.2304, 121.4737), GeoPoint(39.3434, 117.3616)
    leancloud.Object.save_all([Place(name="beijing", at=beijing), Place(name="shanghai", at=shanghai),
                               Place(name="tianjin", at=tianjin)])
    nearest = leancloud.Query(Place).near("at", GeoPoint(39.0, 117.0)).find()
    assert [p.get("name") for p in nearest] == ["tianjin", "beijing", "shanghai"]
    assert [p.get("name") for p in leancloud.Query(Place).within_kilometers("at", beijing, 150).find()] == ["beijing", "tianjin"]
    assert [p.get("name") for p in leancloud.Query(Place).within_miles("at", beijing, 10).find()] == ["beijing"]
    assert [p.get("name") for p in leancloud.Query(Place).within_radians("at", shanghai, 0.01).find()] == ["shanghai"]
    boxed = leancloud.Query(Place).within_geo_box("at", GeoPoint(39.0, 116.0), GeoPoint(40.0, 118.0)).find()
    assert sorted(p.get("name") for p in boxed) == ["beijing", "tianjin"]


def test_relation_queries_find_members_and_owners(leancloud, class_name, wire):
    Tag = leancloud.Object.extend(class_name + "Tag")
    Post = leancloud.Object.extend(class_name)
    swift, sql, go = Tag(name="swift"), Tag(name="sql"), Tag(name="go")
    leancloud.Object.save_all([swift, sql, go])
    first, second = Post(title="first"), Post(title="second")
    first.relation("tags").add(swift, sql)
    second.relation("tags").add(sql)
    leancloud.Object.save_all([first, second])

    members = first.relation("tags").query.find()
    assert sorted(t.get("name") for t in members) == ["sql", "swift"]
    assert first.relation("tags").query.equal_to("name", "sql").count() == 1
    # A fresh parent does not know the target class: the SDK asks with redirectClassNameForKey.
    redirected = Post.create_without_data(first.id).relation("tags").query.find()
    assert sorted(t.get("name") for t in redirected) == ["sql", "swift"]
    assert wire[-1].json()["className"] == Tag._class_name

    owners = leancloud.Relation.reverse_query(Post._class_name, "tags", sql).find()
    assert sorted(p.get("title") for p in owners) == ["first", "second"]


def test_cloud_query_selects_counts_and_takes_placeholders(leancloud, people, class_name):
    Person, _, _ = people
    result = leancloud.Query.do_cloud_query("select * from %s where age > 40 order by age" % class_name)
    assert [p.get("name") for p in result.results] == ["alan", "Edsger", "Grace"]
    assert result.class_name == class_name
    result = leancloud.Query.do_cloud_query("select count(*) from %s where tags = ?" % class_name, "math")
    assert result.count == 3
    result = leancloud.Query.do_cloud_query("select name from %s where age in (?, ?) limit 1" % class_name, [36, 72])
    assert len(result.results) == 1 and result.results[0].get("name") in ("Ada", "Edsger")


def test_cloud_query_syntax_error_is_code_300(leancloud, class_name):
    with pytest.raises(leancloud.LeanCloudError) as error:
        leancloud.Query.do_cloud_query("select * from %s where" % class_name)
    assert error.value.code == 300


def test_scan_walks_the_whole_class_with_the_master_key(leancloud, class_name):
    Item = leancloud.Object.extend(class_name)
    leancloud.Object.save_all([Item(n=i) for i in range(25)])
    leancloud.use_master_key(True)
    seen = [item.get("n") for item in leancloud.Query(Item).scan(batch_size=10, scan_key="n")]
    assert seen == list(range(25))


def test_spaces_and_plus_signs_survive_the_sdk_url_encoding(leancloud, class_name):
    """The SDK form-encodes query parameters (+ for a space) but pastes a conditional save's where raw (literal +)."""
    Note = leancloud.Object.extend(class_name)
    spaced, plussed = Note(text="a b", n=1), Note(text="c+d", n=1)
    leancloud.Object.save_all([spaced, plussed])
    assert [n.id for n in leancloud.Query(Note).equal_to("text", "a b").find()] == [spaced.id]
    assert [n.id for n in leancloud.Query(Note).equal_to("text", "c+d").find()] == [plussed.id]
    assert [n.id for n in leancloud.Query(Note).matched("text", "^c\\+").find()] == [plussed.id]
    result = leancloud.Query.do_cloud_query("select * from %s where text = 'a b'" % class_name)
    assert [n.id for n in result.results] == [spaced.id]
    plussed.set("n", 2)
    plussed.save(where=leancloud.Query(Note).equal_to("text", "c+d"))
    assert leancloud.Query(Note).get(plussed.id).get("n") == 2


def test_include_acl_returns_each_object_acl(leancloud, class_name):
    Note = leancloud.Object.extend(class_name)
    note = Note(text="x")
    acl = leancloud.ACL()
    acl.set_public_read_access(True)
    acl.set_public_write_access(False)
    note.set_acl(acl)
    note.save()
    found = leancloud.Query(Note).include_acl(True).first()
    assert found.get_acl().get_public_read_access() is True
    assert found.get_acl().get_public_write_access() is False
