"""LeanCloud's in-app social API and in-app search through LeanCloud's own JavaScript SDK (4.15.3, vendored in
Tests/python/browser/vendor) in headless Chromium against a live `cirrus serve` (docs/SOCIAL.md, docs/SEARCH.md).

Social: users signed up in the page follow each other (`AV.User#follow` with and without attributes, by user and by
id), read the graph (`AV.User.followerQuery`/`followeeQuery` with `include`, conditions on a follow's attributes,
`getFollowersAndFollowees`), unfollow (and hear 221 the second time), send statuses to their followers
(`AV.Status.sendStatusToFollowers`, `AV.Status#send`) and privately (`AV.Status.sendPrivateStatus`), read inboxes
(`AV.Status.inboxQuery`, `AV.InboxQuery`: newest first, `sinceId`/`maxId` pages, `where`, `count`), count and reset
unread statuses, and destroy a status, which leaves every inbox. Another user's inbox is refused (403).

Search: a class with search turned on over REST (`PUT /1.1/schemas/<class>` with `{"search": {"fields": [...]}}`) is
searched with `AV.SearchQuery` (Chinese, Japanese and English text, `hits()`, `_highlight`, `sid` pages with
`hasMore()` to the end, `AV.SearchSortBuilder`), and an object whose ACL hides it is neither returned nor counted.

The SDK keeps one current user; a test switches between its users with `AV.User.become(sessionToken)`.
"""

import uuid

import pytest
import requests

from conftest import APP_ID, MASTER_KEY

MASTER = {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"}

# Helpers every script below starts with: `signUp(name)` (the new user becomes current; answers {id, token,
# username}), `as(who)` (makes `who`, such an answer, the current user and returns it), `pointer(who)` (an AV.User
# holding only the id), `failure(promise)` (the code and message of a promise that must fail).
PRELUDE = """
async function signUp(name) {
  var user = new AV.User();
  user.setUsername(name);
  user.setPassword('pass-word-1');
  await user.signUp();
  return {id: user.id, token: user.getSessionToken(), username: name};
}
async function as(who) {
  var user = await AV.User.become(who.token);
  if (user.id !== who.id || AV.User.current().id !== who.id) throw new Error('become did not switch to ' + who.id);
  return user;
}
function pointer(who) { return AV.Object.createWithoutData('_User', who.id); }
async function failure(promise) {
  try { await promise; } catch (e) { return {code: e.code === undefined ? null : e.code, message: String(e.message)}; }
  return {code: 'none', message: 'it succeeded'};
}
function ids(list) { return list.map(function (o) { return o.id; }); }
"""


def run(js_sdk, body, **args):
    return js_sdk.run(PRELUDE + body, **args)


def run_as(js_sdk, who, body, **args):
    """Runs `body` with `who` as the SDK's current user (`me` in the script)."""
    return js_sdk.run(PRELUDE + "var me = await as(args.me);\n" + body, me=who, **args)


def sign_up(js_sdk, *roles):
    """New users signed up through the SDK: {role: {id, token, username}} (the last one is left current)."""
    suffix = uuid.uuid4().hex[:8]
    return run(js_sdk, """
        var users = {};
        for (var i = 0; i < args.roles.length; i++) users[args.roles[i]] = await signUp('jss_' + args.roles[i] + '_' + args.suffix);
        return users;
    """, roles=list(roles), suffix=suffix)


# --- Social: the follow graph. ---


def test_follows_with_attributes_are_listed_included_filtered_and_undone_through_the_js_sdk(js_sdk):
    """Fan 1 follows the star with attributes (`follow({user, attributes})`) and fan 2 by AV.User, fan 1 also follows
    fan 2 by id. The star's followers and fan 1's followees come back as users (full with `include`, bare ids without),
    a follow's attributes are conditions of the follower query and are stored on the `_Follower` row,
    `getFollowersAndFollowees` lists both sides. Fan 2 cannot follow on fan 1's behalf (403). Fan 1 unfollows the
    star, which takes both rows away, and a second unfollow is refused with 221."""
    users = sign_up(js_sdk, "star", "fan1", "fan2")
    star, fan1, fan2 = users["star"], users["fan1"], users["fan2"]

    sent = run_as(js_sdk, fan1, """
        window.__requests.length = 0;
        var reply = await me.follow({user: pointer(args.star), attributes: {group: 'close', since: 2020}});
        var wire = window.__requests.map(function (r) { return [r.method, new URL(r.url).pathname]; });
        await me.follow(args.fan2.id);
        return {reply: reply, wire: wire};
    """, star=star, fan2=fan2)
    assert sent["reply"] == {}, sent
    assert sent["wire"] == [["POST", "/1.1/users/%s/friendship/%s" % (fan1["id"], star["id"])]], sent
    run_as(js_sdk, fan2, "await me.follow(pointer(args.star)); return null;", star=star)

    graph = run_as(js_sdk, star, """
        function users(list) {
          return list.map(function (u) { return {id: u.id, username: u.get('username') === undefined ? null : u.get('username'),
                                                  isUser: u instanceof AV.User}; });
        }
        var out = {};
        out.followers = users(await AV.User.followerQuery(args.star.id).include('follower').find());
        out.bare = users(await AV.User.followerQuery(args.star.id).find());
        out.close = users(await me.followerQuery().equalTo('group', 'close').include('follower').find());
        out.since = ids(await AV.User.followerQuery(args.star.id).greaterThanOrEqualTo('since', 2000).find());
        out.count = await AV.User.followerQuery(args.star.id).count();
        out.fan1Followees = users(await AV.User.followeeQuery(args.fan1.id).include('followee').find());
        out.starFollowees = ids(await me.followeeQuery().find());
        var rows = await new AV.Query('_Follower').equalTo('user', pointer(args.star)).find();
        out.rows = rows.map(function (r) { return {follower: r.get('follower').id, group: r.get('group') || null,
                                                   since: r.get('since') === undefined ? null : r.get('since')}; });
        var both = await pointer(args.star).getFollowersAndFollowees();
        out.both = {followers: users(both.followers), followees: users(both.followees)};
        return out;
    """, star=star, fan1=fan1)

    def by_id(entries):
        return sorted(entries, key=lambda e: e["id"])

    full = lambda *who: by_id([{"id": u["id"], "username": u["username"], "isUser": True} for u in who])  # noqa: E731
    assert by_id(graph["followers"]) == full(fan1, fan2), graph
    assert by_id(graph["bare"]) == by_id([{"id": u["id"], "username": None, "isUser": True} for u in (fan1, fan2)]), graph
    assert graph["close"] == full(fan1), graph
    assert graph["since"] == [fan1["id"]], graph
    assert graph["count"] == 2, graph
    assert by_id(graph["fan1Followees"]) == full(star, fan2), graph
    assert graph["starFollowees"] == [], graph
    assert sorted(graph["rows"], key=lambda r: r["follower"]) == sorted(
        [{"follower": fan1["id"], "group": "close", "since": 2020}, {"follower": fan2["id"], "group": None, "since": None}],
        key=lambda r: r["follower"]), graph
    assert by_id(graph["both"]["followers"]) == full(fan1, fan2) and graph["both"]["followees"] == [], graph

    # Fan 2 cannot make fan 1 follow anyone: the path's user is not the session's.
    forged = run_as(js_sdk, fan2, "return await failure(pointer(args.fan1).follow(args.fan2.id));", fan1=fan1, fan2=fan2)
    assert forged["code"] == 403, forged

    undone = run_as(js_sdk, fan1, """
        var reply = await me.unfollow(args.star.id);
        var followers = ids(await AV.User.followerQuery(args.star.id).find());
        var followees = ids(await me.followeeQuery().find());
        var followeeRows = (await new AV.Query('_Followee').equalTo('user', me).find()).map(function (r) { return r.get('followee').id; });
        var again = await failure(me.unfollow(pointer(args.star)));
        return {reply: reply, followers: followers, followees: followees, followeeRows: followeeRows, again: again};
    """, star=star)
    assert undone["reply"] == {}, undone
    assert undone["followers"] == [fan2["id"]], undone
    assert undone["followees"] == [fan2["id"]] and undone["followeeRows"] == [fan2["id"]], undone
    assert undone["again"]["code"] == 221, undone


# --- Social: statuses and inboxes. ---

INBOX = """
function statuses(list) {
  return list.map(function (s) {
    var source = s.get('source');
    return {id: s.id, messageId: s.messageId, message: s.get('message'), image: s.get('image') || null,
            n: s.get('n') === undefined ? null : s.get('n'), inboxType: s.get('inboxType') || null,
            source: source ? source.id : null, sourceName: source && source.get('username') ? source.get('username') : null};
  });
}
function messageIds(list) { return list.map(function (s) { return s.messageId; }); }
"""


def test_statuses_reach_followers_inboxes_newest_first_with_paging_counts_and_leave_them_when_destroyed(js_sdk):
    """A writer with two followers sends three statuses (sendStatusToFollowers with an image, Status#send, and one
    built from a data object). A follower's inbox holds them newest first with messageIds 3, 2, 1 and the writer as
    source (included); `limit` and `maxId` page through it, `sinceId` reads the newer ones, a `where` filters, `count`
    counts; the unread count falls to 0 after resetUnreadCount and a fourth status makes it 1. A third user who
    follows nobody has an empty inbox and is refused (403) reading, counting or resetting the follower's. The writer
    destroys the second status from its own timeline: it leaves both followers' inboxes, the counts and the writer's
    public statuses, and cannot be read any more."""
    users = sign_up(js_sdk, "writer", "reader1", "reader2", "outsider")
    writer, reader1, reader2, outsider = (users[k] for k in ("writer", "reader1", "reader2", "outsider"))
    for reader in (reader1, reader2):
        run_as(js_sdk, reader, "await me.follow(args.writer.id); return null;", writer=writer)

    sent = run_as(js_sdk, writer, """
        var first = new AV.Status('https://example.com/a.png', 'first');
        first.set('n', 1);
        window.__requests.length = 0;
        var returned = await AV.Status.sendStatusToFollowers(first);
        var wire = window.__requests.map(function (r) { return [r.method, new URL(r.url).pathname]; });
        var second = new AV.Status(null, 'second');
        second.set('n', 2);
        await second.send();
        var third = new AV.Status({message: 'third', n: 3});
        await AV.Status.sendStatusToFollowers(third);
        return {ids: [first.id, second.id, third.id], same: returned === first, wire: wire,
                created: first.createdAt instanceof Date};
    """, writer=writer)
    first_id, second_id, third_id = sent["ids"]
    assert len(set(sent["ids"])) == 3 and all(sent["ids"]), sent
    assert sent["same"] and sent["created"], sent
    assert sent["wire"] == [["POST", "/1.1/statuses"]], sent

    read = run_as(js_sdk, reader1, INBOX + """
        var out = {};
        out.all = statuses(await AV.Status.inboxQuery(me).include('source').find());
        out.page1 = messageIds(await AV.Status.inboxQuery(me).limit(2).find());
        out.page2 = messageIds(await AV.Status.inboxQuery(me).limit(2).maxId(out.page1[1] - 1).find());
        out.newer = messageIds(await new AV.InboxQuery(AV.Status).owner(me).inboxType('default').sinceId(1).find());
        out.between = messageIds(await AV.Status.inboxQuery(me).sinceId(1).maxId(2).find());
        out.filtered = ids(await AV.Status.inboxQuery(me).equalTo('n', 2).find());
        out.count = await AV.Status.inboxQuery(me).count();
        out.unread = await AV.Status.countUnreadStatuses(me);
        out.reset = await AV.Status.resetUnreadCount(me);
        out.afterReset = await AV.Status.countUnreadStatuses(AV.User.current());
        return out;
    """)
    assert [s["id"] for s in read["all"]] == [third_id, second_id, first_id], read
    assert [(s["messageId"], s["message"], s["n"]) for s in read["all"]] == [(3, "third", 3), (2, "second", 2), (1, "first", 1)], read
    assert read["all"][2]["image"] == "https://example.com/a.png" and read["all"][0]["image"] is None, read
    assert {(s["source"], s["sourceName"], s["inboxType"]) for s in read["all"]} == {(writer["id"], writer["username"], "default")}, read
    assert read["page1"] == [3, 2] and read["page2"] == [1], read
    assert read["newer"] == [3, 2] and read["between"] == [2], read
    assert read["filtered"] == [second_id], read
    assert read["count"] == 3, read
    assert read["unread"] == {"total": 3, "unread": 3}, read
    assert read["reset"] == {} and read["afterReset"] == {"total": 3, "unread": 0}, read

    run_as(js_sdk, writer, "await new AV.Status(null, 'fourth').send(); return null;")

    refused = run_as(js_sdk, outsider, INBOX + """
        var other = pointer(args.reader1);
        return {
          own: statuses(await AV.Status.inboxQuery(me).find()),
          ownCount: await AV.Status.countUnreadStatuses(me),
          read: await failure(AV.Status.inboxQuery(other).find()),
          readPrivate: await failure(AV.Status.inboxQuery(other, 'private').find()),
          count: await failure(AV.Status.countUnreadStatuses(other)),
          reset: await failure(AV.Status.resetUnreadCount(other)),
        };
    """, reader1=reader1)
    assert refused["own"] == [] and refused["ownCount"] == {"total": 0, "unread": 0}, refused
    for way in ("read", "readPrivate", "count", "reset"):
        assert refused[way]["code"] == 403, (way, refused)

    destroyed = run_as(js_sdk, writer, INBOX + """
        var mine = await AV.Status.inboxQuery(me).find();
        var out = {timeline: mine.map(function (s) { return s.get('message'); })};
        var second = mine.filter(function (s) { return s.get('message') === 'second'; })[0];
        out.destroyed = await second.destroy();
        out.timelineAfter = (await AV.Status.inboxQuery(me).find()).map(function (s) { return s.get('message'); });
        out.published = (await AV.Status.statusQuery(me).find()).map(function (s) { return s.get('message'); }).sort();
        return out;
    """)
    assert destroyed["timeline"] == ["fourth", "third", "second", "first"], "the sender's own timeline holds its statuses: %s" % destroyed
    assert destroyed["timelineAfter"] == ["fourth", "third", "first"], destroyed
    assert destroyed["published"] == ["first", "fourth", "third"], destroyed

    for reader, unread in ((reader1, 1), (reader2, 3)):
        after = run_as(js_sdk, reader, INBOX + """
            return {inbox: statuses(await AV.Status.inboxQuery(me).find()),
                    counted: await AV.Status.countUnreadStatuses(me),
                    gone: await failure(new AV.Query('_Status').get(args.second)),
                    found: ids(await new AV.Query('_Status').equalTo('objectId', args.second).find())};
        """, second=second_id)
        assert [(s["messageId"], s["message"]) for s in after["inbox"]] == [(4, "fourth"), (3, "third"), (1, "first")], after
        assert after["counted"] == {"total": 3, "unread": unread}, "the refused reset changed nothing: %s" % after
        assert after["gone"]["code"] == 101 and after["found"] == [], after


def test_a_private_status_reaches_its_recipients_private_inbox_alone(js_sdk):
    """sendPrivateStatus puts the status into the recipient's `private` inbox only (not its timeline, not the
    sender's inboxes); the recipient reads and counts it there. A bystander's private inbox is empty, reading the
    recipient's is refused (403), and the status is not among the sender's public statuses for the bystander,
    although the sender reads it there."""
    users = sign_up(js_sdk, "sender", "recipient", "bystander")
    sender, recipient, bystander = users["sender"], users["recipient"], users["bystander"]

    sent = run_as(js_sdk, sender, """
        var status = new AV.Status(null, 'just for you');
        status.set('mood', 'quiet');
        await AV.Status.sendPrivateStatus(status, args.recipient.id);
        return {id: status.id, inboxType: status.inboxType,
                ownPrivate: ids(await AV.Status.inboxQuery(me, 'private').find()),
                ownDefault: ids(await AV.Status.inboxQuery(me).find()),
                published: ids(await AV.Status.statusQuery(me).find())};
    """, recipient=recipient)
    assert sent["id"] and sent["inboxType"] == "private", sent
    assert sent["ownPrivate"] == [] and sent["ownDefault"] == [], sent
    assert sent["published"] == [sent["id"]], "a private status is readable by its sender: %s" % sent

    received = run_as(js_sdk, recipient, INBOX + """
        return {private: statuses(await AV.Status.inboxQuery(me, 'private').include('source').find()),
                timeline: statuses(await AV.Status.inboxQuery(me).find()),
                counted: await AV.Status.countUnreadStatuses(me, 'private'),
                countedDefault: await AV.Status.countUnreadStatuses(me)};
    """)
    assert [(s["id"], s["messageId"], s["message"], s["inboxType"], s["source"], s["sourceName"]) for s in received["private"]] == [
        (sent["id"], 1, "just for you", "private", sender["id"], sender["username"])], received
    assert received["timeline"] == [], received
    assert received["counted"] == {"total": 1, "unread": 1} and received["countedDefault"] == {"total": 0, "unread": 0}, received

    snooped = run_as(js_sdk, bystander, """
        return {own: ids(await AV.Status.inboxQuery(me, 'private').find()),
                other: await failure(AV.Status.inboxQuery(pointer(args.recipient), 'private').find()),
                published: ids(await AV.Status.statusQuery(pointer(args.sender)).find()),
                get: await failure(new AV.Query('_Status').get(args.id))};
    """, recipient=recipient, sender=sender, id=sent["id"])
    assert snooped["own"] == [], snooped
    assert snooped["other"]["code"] == 403, snooped
    assert snooped["published"] == [], snooped
    assert snooped["get"]["code"] == 101, snooped


# --- Search. ---


def enable_search(cirrus, cls, fields, create_class=False):
    """Turns search on for `cls` over `fields` with the schema API (docs/SEARCH.md); with `create_class`, first
    creates the class with those fields as strings (the schema API changes only a class that exists)."""
    if create_class:
        created = requests.post(cirrus.url + "/1.1/schemas/" + cls, headers=MASTER, timeout=30,
                                json={"fields": {field: {"type": "String"} for field in fields}})
        assert created.status_code == 201, created.text
    reply = requests.put(cirrus.url + "/1.1/schemas/" + cls, json={"search": {"fields": fields}}, headers=MASTER, timeout=30)
    assert reply.status_code == 200, reply.text
    assert reply.json().get("search") == {"fields": fields}, reply.text


def create(cirrus, cls, objects):
    """Creates `objects` with the master key in one batch; returns their ids in order."""
    reply = requests.post(cirrus.url + "/1.1/batch", headers=MASTER, timeout=30, json={
        "requests": [{"method": "POST", "path": "/1.1/classes/" + cls, "body": o} for o in objects]})
    assert reply.status_code == 200, reply.text
    results = reply.json()
    assert all("success" in r for r in results), results
    return [r["success"]["objectId"] for r in results]


SEARCH = """
async function search(q, configure) {
  var query = new AV.SearchQuery(args.cls);
  query.queryString(q);
  if (configure) configure(query);
  var results = await query.find();
  return {hits: query.hits(), hasMore: query.hasMore(),
          results: results.map(function (o) {
            return {id: o.id, title: o.get('title'), n: o.get('n'), className: o.className,
                    highlight: o.get('_highlight') === undefined ? 'absent' : o.get('_highlight')};
          })};
}
"""

# Objects created before search is turned on (the schema API builds the index) and after (each write indexes).
BEFORE = [
    {"title": "响应式设计很重要", "body": "网页设计的基本原则", "n": 1},
    {"title": "设置计划", "body": "先设置，再计划", "n": 2},  # 设 and 计, never next to each other
    {"title": "東京タワーの夜景", "body": "とても綺麗でした", "n": 3},
]
AFTER = [
    {"title": "设计模式", "body": "Design patterns in Swift", "n": 4},
    {"title": "The quick brown fox", "body": "jumps over the lazy dog", "n": 5},
    {"title": "Café society", "body": "CAFE culture and coffee", "n": 6},
]


def test_search_finds_chinese_japanese_and_english_text_with_hits_and_highlights_through_the_js_sdk(js_sdk, cirrus):
    """Search on `title` and `body`, turned on between two sets of objects (the second saved through the SDK): the
    two-character word 设计 finds its two objects wherever it stands (and not 设置计划, whose 设 and 计 are apart),
    Japanese and folded English are found, fields and phrases narrow a search, `hits()` counts, and `_highlight` marks
    the matched words per field (only the fields asked for and matched) on the original text; without `highlights`
    there are none. The SDK sends GET /1.1/search/select with clazz, q and highlights."""
    cls = "Sjs" + uuid.uuid4().hex[:12]
    before = create(cirrus, cls, BEFORE)
    enable_search(cirrus, cls, ["title", "body"])
    after = run(js_sdk, """
        var objects = args.after.map(function (data) { var o = new AV.Object(args.cls); o.set(data); return o; });
        await AV.Object.saveAll(objects);
        return ids(objects);
    """, cls=cls, after=AFTER)
    by_title = dict(zip([o["title"] for o in BEFORE + AFTER], before + after))

    result = run(js_sdk, SEARCH + """
        var out = {};
        window.__requests.length = 0;
        out.design = await search('设计', function (q) { q.highlights('title', 'body'); });
        out.wire = window.__requests.map(function (r) { var u = new URL(r.url);
          return {method: r.method, path: u.pathname, clazz: u.searchParams.get('clazz'), q: u.searchParams.get('q'),
                  highlights: u.searchParams.get('highlights')}; });
        out.designTitle = await search('title:设计', function (q) { q.highlights(['title']); });
        out.designBody = await search('body:设计');
        out.tokyo = await search('東京', function (q) { q.highlights('title'); });
        out.nightView = await search('夜景 AND 綺麗');
        out.fox = await search('"quick brown"', function (q) { q.highlights('*'); });
        out.foxReversed = await search('"brown quick"');
        out.cafe = await search('cafe', function (q) { q.highlights('title', 'body'); });
        out.none = await search('不存在');
        return out;
    """, cls=cls)

    def found(reply):
        return sorted(r["id"] for r in reply["results"])

    def ids_of(*titles):
        return sorted(by_title[t] for t in titles)

    design = result["design"]
    assert found(design) == ids_of("响应式设计很重要", "设计模式") and design["hits"] == 2, result
    assert all(r["className"] == cls for r in design["results"]), design
    highlights = {r["title"]: r["highlight"] for r in design["results"]}
    assert highlights["响应式设计很重要"] == {"title": ["响应式<em>设计</em>很重要"], "body": ["网页<em>设计</em>的基本原则"]}, design
    assert highlights["设计模式"] == {"title": ["<em>设计</em>模式"]}, design
    assert result["wire"] == [{"method": "GET", "path": "/1.1/search/select", "clazz": cls, "q": "设计", "highlights": "title,body"}], result

    assert found(result["designTitle"]) == ids_of("响应式设计很重要", "设计模式") and result["designTitle"]["hits"] == 2, result
    assert found(result["designBody"]) == ids_of("响应式设计很重要") and result["designBody"]["hits"] == 1, result
    assert all(r["highlight"] is None for r in result["designBody"]["results"]), "no highlights unless asked: %s" % result

    tokyo = result["tokyo"]
    assert found(tokyo) == ids_of("東京タワーの夜景") and tokyo["hits"] == 1, result
    assert tokyo["results"][0]["highlight"] == {"title": ["<em>東京</em>タワーの夜景"]}, tokyo
    assert found(result["nightView"]) == ids_of("東京タワーの夜景"), result

    fox = result["fox"]
    assert found(fox) == ids_of("The quick brown fox") and fox["hits"] == 1, result
    assert fox["results"][0]["highlight"] == {"title": ["The <em>quick</em> <em>brown</em> fox"]}, fox
    assert result["foxReversed"]["results"] == [] and result["foxReversed"]["hits"] == 0, result

    cafe = result["cafe"]
    assert found(cafe) == ids_of("Café society") and cafe["hits"] == 1, result
    assert cafe["results"][0]["highlight"] == {"title": ["<em>Café</em> society"], "body": ["<em>CAFE</em> culture and coffee"]}, cafe

    assert result["none"] == {"hits": 0, "hasMore": False, "results": []}, result


# `pages(q, configure)`: a search's pages through the sid the SDK keeps (`limit(3)` unless `configure` changes it),
# as long as `hasMore()`: [{ns, ids, hits, hasMore}] and the query.
PAGES = """
async function pages(q, configure) {
  var query = new AV.SearchQuery(args.cls);
  query.queryString(q).limit(3);
  if (configure) configure(query);
  var out = [];
  for (var i = 0; i < 12 && query.hasMore(); i++) {
    var results = await query.find();
    out.push({ns: results.map(function (o) { return o.get('n'); }), ids: ids(results), hits: query.hits(),
              hasMore: query.hasMore()});
  }
  return {pages: out, query: query};
}
"""


def test_search_pages_with_sid_to_the_end_and_sorts_with_the_sort_builder_through_the_js_sdk(js_sdk, cirrus):
    """Seven objects hold the word and two do not. `limit(3)` with `sortBy(new AV.SearchSortBuilder()
    .descending('n'))` pages 7 6 5 / 4 3 2 / 1 through the sid the SDK keeps, `hits()` 7 on every page and
    `hasMore()` false after the last; ascending reverses it; a relevance-ordered search pages through every object
    exactly once; six hits in pages of three end after the second page, with no empty third; `reset()` starts over."""
    cls = "Sjs" + uuid.uuid4().hex[:12]
    create(cirrus, cls, [{"title": "苹果第%d号" % n, "n": n} for n in range(1, 8)] + [{"title": "香蕉", "n": 8}, {"title": "apple", "n": 9}])
    enable_search(cirrus, cls, ["title"])

    result = run(js_sdk, PAGES + """
        var out = {};
        window.__requests.length = 0;
        var descending = await pages('苹果', function (q) { q.sortBy(new AV.SearchSortBuilder().descending('n')); });
        out.descending = descending.pages;
        out.wire = window.__requests.map(function (r) { var u = new URL(r.url);
          return {sid: u.searchParams.get('sid'), sort: u.searchParams.get('sort'), limit: u.searchParams.get('limit')}; });
        out.ascending = (await pages('苹果', function (q) { q.sortBy(new AV.SearchSortBuilder().ascending('n')); })).pages;
        out.relevance = (await pages('苹果')).pages;
        out.six = (await pages('苹果 AND NOT n:7', function (q) { q.sortBy(new AV.SearchSortBuilder().ascending('n')); })).pages;
        var again = descending.query;
        again.reset();
        out.reset = {hasMore: again.hasMore(), ns: (await again.find()).map(function (o) { return o.get('n'); })};
        return out;
    """, cls=cls)

    descending = result["descending"]
    assert [p["ns"] for p in descending] == [[7, 6, 5], [4, 3, 2], [1]], result
    assert [p["hits"] for p in descending] == [7, 7, 7] and [p["hasMore"] for p in descending] == [True, True, False], result
    wire = result["wire"]
    assert len(wire) == 3 and wire[0]["sid"] is None and wire[1]["sid"] and wire[2]["sid"] and wire[1]["sid"] != wire[2]["sid"], wire
    assert wire[0]["limit"] == "3" and '"n"' in (wire[0]["sort"] or "") and '"desc"' in wire[0]["sort"], wire

    assert [p["ns"] for p in result["ascending"]] == [[1, 2, 3], [4, 5, 6], [7]], result
    relevance = result["relevance"]
    seen = [i for p in relevance for i in p["ids"]]
    assert len(seen) == 7 and len(set(seen)) == 7, "every object exactly once: %s" % result
    assert sorted(n for p in relevance for n in p["ns"]) == list(range(1, 8)), result
    assert [p["hasMore"] for p in relevance] == [True, True, False], result
    six = result["six"]
    assert [p["ns"] for p in six] == [[1, 2, 3], [4, 5, 6]] and [p["hits"] for p in six] == [6, 6], result
    assert [p["hasMore"] for p in six] == [True, False], result
    assert result["reset"] == {"hasMore": True, "ns": [7, 6, 5]}, result


def test_search_pages_with_sid_through_objects_sharing_a_sort_value_each_exactly_once_through_the_js_sdk(js_sdk, cirrus):
    """LeanCloud's sid is a scroll cursor: the pages of a search hold each hit once, whatever the order. Twenty-four
    objects, sorted by a field they share in two values (`ascending('group')`) or by their distance from a point
    where half of them stand together (`whereNear`), page five at a time through every one of them exactly once, in
    the order asked for."""
    cls = "Sjs" + uuid.uuid4().hex[:12]
    here, there = {"__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4}, {"__type": "GeoPoint", "latitude": 31.2, "longitude": 121.5}
    oranges = create(cirrus, cls, [{"title": "橙子%d" % n, "n": n, "group": "ab"[n % 2], "location": (here, there)[n % 2]}
                                   for n in range(24)])
    enable_search(cirrus, cls, ["title"])

    result = run(js_sdk, PAGES + """
        var here = new AV.GeoPoint(39.9, 116.4);
        return {
          group: (await pages('橙子', function (q) { q.limit(5).sortBy(new AV.SearchSortBuilder().ascending('group')); })).pages,
          near: (await pages('橙子', function (q) { q.limit(5).sortBy(new AV.SearchSortBuilder().whereNear('location', here)); })).pages,
        };
    """, cls=cls)

    problems = []
    for sort, pages in result.items():
        seen = [i for p in pages for i in p["ids"]]
        if [len(p["ids"]) for p in pages] != [5, 5, 5, 5, 4] or [p["hasMore"] for p in pages] != [True] * 4 + [False]:
            problems.append("%s: pages of %s, hasMore %s" % (sort, [len(p["ids"]) for p in pages], [p["hasMore"] for p in pages]))
        if sorted(seen) != sorted(oranges):
            problems.append("%s: %d objects seen, %d distinct of %d; n by page: %s" % (
                sort, len(seen), len(set(seen)), len(oranges), [p["ns"] for p in pages]))
        halves = [n % 2 for p in pages for n in p["ns"]]
        if halves != sorted(halves):
            problems.append("%s: not in order: %s" % (sort, [p["ns"] for p in pages]))
    assert not problems, "sid pages over tied sort values:\n" + "\n".join(problems)


def test_an_object_hidden_by_its_acl_is_neither_returned_nor_counted_by_a_search_through_the_js_sdk(js_sdk, cirrus):
    """The owner saves through the SDK a public object, one only it may read and one only another user may read, all
    matching the search. A reader sees the public one alone (hits 1, nothing highlighted from the others, one page);
    the owner sees its two (hits 2) and the third user its own and the public one; an anonymous visitor the public
    one; the master key all three."""
    cls = "Sjs" + uuid.uuid4().hex[:12]
    enable_search(cirrus, cls, ["title", "body"], create_class=True)
    users = sign_up(js_sdk, "owner", "reader", "third")
    owner, reader, third = users["owner"], users["reader"], users["third"]

    saved = run_as(js_sdk, owner, """
        function acl(who) { var a = new AV.ACL(); a.setReadAccess(who, true); a.setWriteAccess(who, true); return a; }
        var open = new AV.Object(args.cls); open.set({title: '公开的设计稿', body: 'public draft', n: 1});
        var acl1 = new AV.ACL(); acl1.setPublicReadAccess(true); acl1.setWriteAccess(me, true); open.setACL(acl1);
        var mine = new AV.Object(args.cls); mine.set({title: '私人的设计稿', body: 'private draft', n: 2}); mine.setACL(acl(me));
        var theirs = new AV.Object(args.cls); theirs.set({title: '别人的设计稿', body: 'secret draft', n: 3}); theirs.setACL(acl(pointer(args.third)));
        await AV.Object.saveAll([open, mine, theirs]);
        return {open: open.id, mine: mine.id, theirs: theirs.id};
    """, cls=cls, third=third)

    script = SEARCH + """
        return {design: await search('设计', function (q) { q.highlights('*'); }),
                draft: await search('draft', function (q) { q.highlights('body'); }),
                paged: await search('设计稿', function (q) { q.limit(1); }),
                named: await search('body:secret')};
    """
    as_reader = run_as(js_sdk, reader, script, cls=cls)
    for name in ("design", "draft", "paged"):
        assert [r["id"] for r in as_reader[name]["results"]] == [saved["open"]], (name, as_reader)
        assert as_reader[name]["hits"] == 1 and as_reader[name]["hasMore"] is False, (name, as_reader)
    assert as_reader["named"] == {"hits": 0, "hasMore": False, "results": []}, as_reader
    assert "私人" not in str(as_reader) and "secret" not in str(as_reader) and "别人" not in str(as_reader), as_reader

    as_owner = run_as(js_sdk, owner, script, cls=cls)
    assert sorted(r["id"] for r in as_owner["design"]["results"]) == sorted([saved["open"], saved["mine"]]), as_owner
    assert as_owner["design"]["hits"] == 2 and as_owner["draft"]["hits"] == 2, as_owner
    assert as_owner["paged"]["hits"] == 2 and as_owner["paged"]["hasMore"] is True, as_owner
    assert as_owner["named"]["hits"] == 0, as_owner

    as_third = run_as(js_sdk, third, script, cls=cls)
    assert sorted(r["id"] for r in as_third["design"]["results"]) == sorted([saved["open"], saved["theirs"]]), as_third
    assert [r["id"] for r in as_third["named"]["results"]] == [saved["theirs"]] and as_third["named"]["hits"] == 1, as_third

    anonymous = run(js_sdk, "await AV.User.logOut();\n" + SEARCH + "return await search('设计');", cls=cls)
    assert [r["id"] for r in anonymous["results"]] == [saved["open"]] and anonymous["hits"] == 1, anonymous

    master = requests.get(cirrus.url + "/1.1/search/select", params={"clazz": cls, "q": "设计"}, headers=MASTER, timeout=30)
    assert master.status_code == 200 and master.json()["hits"] == 3, master.text
