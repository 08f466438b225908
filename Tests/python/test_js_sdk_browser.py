"""The LeanCloud JavaScript SDK (4.15.3, vendored in Tests/python/browser/vendor) in headless Chromium against a live
`cirrus serve`, from a page on another loopback origin (so every request is a cross-origin one, as in a web app).

Each test checks that an attack fails and that the legitimate use next to it works, as docs/SECURITY.md describes:
query-string decoding, uploaded active content, other users' personal data and numbers at the edges.
"""

import base64
import json
import urllib.parse
import uuid

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY, open_user_find, running_server

MASTER = {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"}
LARGEST_DOUBLE = 1.7976931348623157e308


@pytest.fixture
def js_class():
    """A class of its own for the test, with a short name (the shared `class_name` can reach 63 characters)."""
    return "Js" + uuid.uuid4().hex[:12]


def query_parameter(url, name):
    """The raw (still percent-encoded) value of `name` in `url`'s query string, or None."""
    for pair in urllib.parse.urlsplit(url).query.split("&"):
        key, _, value = pair.partition("=")
        if key == name:
            return value
    return None


# --- 1. Query-string decoding: `+`, spaces and percent signs in a `where` sent by the JavaScript SDK. ---

# Look-alikes stored side by side in one class: a query for one of them must find that one and no other.
LOOK_ALIKES = ["a b", "a+b", "a%2Bb", "a%20b", "a++b", "a &b=c"]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_plus_signs_spaces_and_percent_signs_in_a_where_travel_through_the_js_sdk_unchanged(js_sdk, js_class, name):
    """The SDK encodes its query string with encodeURIComponent (a space as %20, a plus as %2B), as
    docs/SECURITY.md "Query-string decoding" says; Cirrus must find exactly the object named `name` among its
    look-alikes through equalTo, containedIn, notEqualTo, count, a containedIn long enough that the SDK sends it
    through /batch, and CQL (parameter and literal), and the SDK's save and fetch must round-trip the value."""
    result = js_sdk.run("""
        var C = args.cls;
        var objects = args.names.map(function (n) { var o = new AV.Object(C); o.set('name', n); o.set('copy', n); return o; });
        await AV.Object.saveAll(objects);
        var ids = {};
        objects.forEach(function (o) { ids[o.get('name')] = o.id; });
        async function names(query) { return (await query.find()).map(function (o) { return o.get('name'); }).sort(); }
        function query() { return new AV.Query(C); }
        var out = {ids: ids};
        window.__requests.length = 0;
        out.equalTo = await names(query().equalTo('name', args.name));
        out.equalToRequests = window.__requests.slice();
        out.containedIn = await names(query().containedIn('name', [args.name]));
        out.notEqualTo = await names(query().notEqualTo('name', args.name));
        out.notContainedIn = await names(query().notContainedIn('name', [args.name]));
        out.count = await query().equalTo('name', args.name).count();
        out.both = await names(query().equalTo('name', args.name).equalTo('copy', args.name));
        var filler = [];
        for (var i = 0; i < 150; i++) filler.push('filler ' + i + ' + padding');
        window.__requests.length = 0;
        out.longContainedIn = await names(query().containedIn('name', filler.concat([args.name])));
        out.longRequests = window.__requests.slice();
        window.__requests.length = 0;
        var cql = await AV.Query.doCloudQuery('select * from ' + C + ' where name = ?', [args.name]);
        out.cqlParameter = cql.results.map(function (o) { return o.get('name'); });
        out.cqlRequests = window.__requests.slice();
        cql = await AV.Query.doCloudQuery("select * from " + C + " where name = '" + args.name + "'");
        out.cqlLiteral = cql.results.map(function (o) { return o.get('name'); });
        var fetched = await AV.Object.createWithoutData(C, ids[args.name]).fetch();
        out.fetched = fetched.get('name');
        fetched.set('copy', args.name + ' / ' + args.name);
        await fetched.save();
        out.refetched = (await new AV.Query(C).get(ids[args.name])).get('copy');
        return out;
    """, cls=js_class, names=LOOK_ALIKES, name=name)

    others = sorted(n for n in LOOK_ALIKES if n != name)
    assert result["equalTo"] == [name], result
    assert result["containedIn"] == [name], result
    assert result["notEqualTo"] == others, result
    assert result["notContainedIn"] == others, result
    assert result["count"] == 1, result
    assert result["both"] == [name], result
    assert result["longContainedIn"] == [name], result
    assert result["cqlParameter"] == [name], result
    assert result["cqlLiteral"] == [name], result
    assert result["fetched"] == name
    assert result["refetched"] == name + " / " + name

    # What went over the wire: the where of equalTo as encodeURIComponent writes it (no raw `+` or space).
    finds = [r["url"] for r in result["equalToRequests"] if r["method"] == "GET" and "/1.1/classes/" in r["url"]]
    assert len(finds) == 1, result["equalToRequests"]
    where = query_parameter(finds[0], "where")
    assert where is not None and "+" not in where and " " not in where, finds[0]
    assert where == urllib.parse.quote(json.dumps({"name": name}, separators=(",", ":")), safe="!'()*-._~"), finds[0]
    # The long containedIn went through POST /batch (the SDK does so past 2000 encoded characters).
    long_requests = [(r["method"], urllib.parse.urlsplit(r["url"]).path) for r in result["longRequests"]]
    assert long_requests == [("POST", "/1.1/batch")], result["longRequests"]
    cql_urls = [r["url"] for r in result["cqlRequests"] if "/1.1/cloudQuery" in r["url"]]
    assert len(cql_urls) == 1 and "+" not in urllib.parse.urlsplit(cql_urls[0]).query, cql_urls


# --- 2. Uploaded active content does not run in the browser. ---

def signalling_script(signal_url, token):
    """JavaScript that, if it runs, tells the page server (fetch, beacon, image) and marks its origin's storage."""
    return (
        "(function () { var u = %s;"
        " try { localStorage.setItem('cirrus-uploaded-script', %s); } catch (e) {}"
        " try { navigator.sendBeacon(u + '/beacon', 'x'); } catch (e) {}"
        " try { fetch(u + '/fetch', {mode: 'no-cors'}); } catch (e) {}"
        " try { new Image().src = u + '/image'; } catch (e) {}"
        " })();" % (json.dumps(signal_url), json.dumps(token))
    )


def html_page(script):
    return "<!doctype html><html><head><title>hello</title></head><body><p>hello</p><script>%s</script></body></html>" % script


def svg_image(script):
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">'
        '<rect width="40" height="30" fill="red"/><script type="text/javascript"><![CDATA[%s]]></script></svg>' % script
    )


def xhtml_page(script):
    return (
        '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head>'
        "<body><p>hello</p><script><![CDATA[%s]]></script></body></html>" % script
    )


# (file name, the type the SDK announces or None, how the SDK sends it, content maker, type that runs it, served as
# an attachment). The control serves the same bytes from the page server with the type that runs them.
ACTIVE_UPLOADS = [
    ("page.html", "text/html", "blob", html_page, "text/html", True),
    ("page.html", "text/html", "base64", html_page, "text/html", True),
    ("page.htm", None, "base64", html_page, "text/html", True),
    ("drawing.svg", "image/svg+xml", "blob", svg_image, "image/svg+xml", True),
    ("page.xhtml", "application/xhtml+xml", "blob", xhtml_page, "application/xhtml+xml", True),
    ("notes.txt", "text/plain", "blob", html_page, "text/html", False),
    ("photo.png", "image/png", "blob", html_page, "text/html", False),
]


def upload(js_sdk, name, mime_type, how, content):
    """Uploads `content` (bytes) through the SDK's AV.File(...).save(); returns {id, url, mime_type}."""
    return js_sdk.run("""
        var bytes = Uint8Array.from(atob(args.base64), function (c) { return c.charCodeAt(0); });
        var data = args.how === 'blob' ? new Blob([bytes], args.mime ? {type: args.mime} : {}) : {base64: args.base64};
        var file = args.mime ? new AV.File(args.name, data, args.mime) : new AV.File(args.name, data);
        await file.save();
        return {id: file.id, url: file.url(), mime_type: file.get('mime_type')};
    """, name=name, mime=mime_type, how=how, base64=base64.b64encode(content).decode())


@pytest.mark.parametrize("name,mime_type,how,make,runs_as,attachment", ACTIVE_UPLOADS,
                         ids=["%s-%s-%s" % (u[0], u[1] or "untyped", u[2]) for u in ACTIVE_UPLOADS])
def test_active_content_uploaded_through_the_js_sdk_does_not_run_when_its_url_is_opened(
        browser, js_sdk, cirrus, name, mime_type, how, make, runs_as, attachment):
    """A user uploads through AV.File a page (HTML, SVG, XHTML, or HTML announced as text or an image) whose script
    calls the page server and marks localStorage. Opening the file's URL in Chromium must not run it: the reply is
    an attachment for active types and always has `nosniff` and a sandboxing CSP (docs/SECURITY.md "Uploads and
    serving user files"). The control, the same bytes served as a page from the page server, does signal, which
    shows the detection works; and the upload itself succeeds, its content downloading unchanged."""
    pages = browser.pages
    token = uuid.uuid4().hex
    content = make(signalling_script(pages.signal_url(token), token)).encode()
    saved = upload(js_sdk, name, mime_type, how, content)
    assert saved["id"] and saved["url"].startswith(cirrus.url + "/"), saved

    reply = requests.get(saved["url"], timeout=10)
    assert reply.status_code == 200 and reply.content == content, (reply.status_code, reply.headers)
    assert reply.headers.get("X-Content-Type-Options") == "nosniff", reply.headers
    policy = reply.headers.get("Content-Security-Policy", "")
    assert "sandbox" in policy and "default-src 'none'" in policy, reply.headers
    disposition = reply.headers.get("Content-Disposition", "")
    if attachment:
        assert disposition.startswith("attachment"), reply.headers
    else:
        assert reply.headers["Content-Type"].split(";")[0] == mime_type, reply.headers

    # The attack: a victim opens the link (top-level navigation, as a click would).
    try:
        browser.driver.get(saved["url"])
    except Exception as error:  # an attachment may end the navigation with an error: that is no script running
        print("navigation to %s ended with %s" % (saved["url"], type(error).__name__))
    if attachment:
        # A download (denied here) does not replace the page the link was opened from.
        assert browser.driver.current_url != saved["url"], "the attachment was opened as a page"
    else:
        assert browser.driver.current_url == saved["url"]
    assert pages.wait_for_signal(token, timeout=2) == [], "the uploaded %s ran its script: %s" % (name, pages.signalled(token))
    assert "cirrus-uploaded-script" not in browser.local_storage(cirrus.url)

    # The control: the same bytes, served by the page server as what would run them, do signal.
    control = pages.add("/control/%s/%s" % (token, name), content, runs_as)
    browser.driver.get(control)
    assert pages.wait_for_signal(token, timeout=10), "the control page did not signal: the detection is broken"


def test_an_image_uploaded_through_the_js_sdk_displays_inline(browser, js_sdk, cirrus):
    """The legitimate path next to the sandbox: a PNG drawn on a canvas and uploaded as a Blob through AV.File is
    served inline (no attachment) and loads in an <img> on the web app's page (naturalWidth > 0); so does an SVG in
    an <img> (where no script runs anyway), although opening it alone is a download."""
    result = js_sdk.run("""
        var canvas = document.createElement('canvas');
        canvas.width = 7; canvas.height = 5;
        var context = canvas.getContext('2d');
        context.fillStyle = '#0a0'; context.fillRect(0, 0, 7, 5);
        var blob = await new Promise(function (resolve) { canvas.toBlob(resolve, 'image/png'); });
        var png = new AV.File('dot.png', blob, 'image/png');
        await png.save();
        var svgText = '<svg xmlns="http://www.w3.org/2000/svg" width="11" height="13"><rect width="11" height="13" fill="blue"/></svg>';
        var svg = new AV.File('shape.svg', new Blob([svgText], {type: 'image/svg+xml'}), 'image/svg+xml');
        await svg.save();
        function load(url) {
          return new Promise(function (resolve) {
            var img = new Image();
            img.onload = function () { resolve({loaded: true, width: img.naturalWidth, height: img.naturalHeight}); };
            img.onerror = function () { resolve({loaded: false, width: img.naturalWidth, height: img.naturalHeight}); };
            img.src = url;
            document.body.appendChild(img);
          });
        }
        return {png: png.url(), svg: svg.url(), pngImage: await load(png.url()), svgImage: await load(svg.url())};
    """)
    assert result["pngImage"] == {"loaded": True, "width": 7, "height": 5}, result
    assert result["svgImage"] == {"loaded": True, "width": 11, "height": 13}, result
    png = requests.get(result["png"], timeout=10)
    assert png.headers["Content-Type"] == "image/png", png.headers
    assert "Content-Disposition" not in png.headers or not png.headers["Content-Disposition"].startswith("attachment"), png.headers
    assert png.content.startswith(b"\x89PNG"), png.content[:8]
    svg = requests.get(result["svg"], timeout=10)
    assert svg.headers.get("Content-Disposition", "").startswith("attachment"), svg.headers

    # Opened alone, the PNG is shown (Chromium's image viewer), not downloaded.
    browser.driver.get(result["png"])
    assert browser.driver.current_url == result["png"]
    shown = browser.driver.execute_script("var i = document.querySelector('img'); return i && [i.complete, i.naturalWidth, i.naturalHeight];")
    assert shown == [True, 7, 5], shown


# --- 3. Other users' personal data through the JavaScript SDK. ---

def new_phone():
    """A mainland number no other test uses (other tests count up from +8618600000000)."""
    return "+86186%08d" % (10_000_000 + uuid.uuid4().int % 90_000_000)


def sign_up_and_post(js_sdk, prefix, cls):
    """Signs up A (username, email, phone) through the SDK, which makes A current, has A post an object of `cls`
    pointing to A, and logs A out. Returns A's fields and the post's id."""
    a = {"username": "%s_a_%s" % (prefix, uuid.uuid4().hex[:8]), "password": "pass-word-1",
         "email": "a-%s@example.com" % uuid.uuid4().hex[:10], "mobilePhoneNumber": new_phone()}
    created = js_sdk.run("""
        var user = new AV.User();
        user.setUsername(args.a.username); user.setPassword(args.a.password);
        user.setEmail(args.a.email); user.setMobilePhoneNumber(args.a.mobilePhoneNumber);
        await user.signUp();
        var post = new AV.Object(args.cls);
        post.set('title', 'by a'); post.set('author', user);
        await post.save();
        var me = await AV.User.current().fetch();
        var own = await new AV.Query(args.cls).include('author').get(post.id);
        var result = {id: user.id, post: post.id, ownFetch: {email: me.getEmail(), phone: me.getMobilePhoneNumber()},
                      ownInclude: {email: own.get('author').get('email'), phone: own.get('author').get('mobilePhoneNumber')}};
        await AV.User.logOut();
        return result;
    """, a=a, cls=cls)
    return a, created


def refusal(js_sdk, body, **args):
    error = js_sdk.error(body, **args)
    return {"code": error.code, "message": error.message}


# How a guess at A's e-mail or phone can be put to the server: each must be refused alike for a right and a wrong
# guess (`field`, `guess` and `id` are filled in; `cls` is the class of the posts pointing to users).
GUESSES = {
    "_User equalTo": "return (await new AV.Query('_User').equalTo(args.field, args.guess).find()).length;",
    "_User exists": "return (await new AV.Query('_User').exists(args.field).equalTo('objectId', args.id).find()).length;",
    "_User startsWith": "return (await new AV.Query('_User').startsWith(args.field, args.guess.slice(0, 3)).find()).length;",
    "_User ascending": "return (await new AV.Query('_User').ascending(args.field).find()).length;",
    "_User count": "return await new AV.Query('_User').equalTo(args.field, args.guess).count();",
    "_User or": "return (await AV.Query.or(new AV.Query('_User').equalTo('username', 'nobody'), "
                "new AV.Query('_User').equalTo(args.field, args.guess)).find()).length;",
    "sub-query matchesQuery": "return (await new AV.Query(args.cls).matchesQuery('author', "
                              "new AV.Query('_User').equalTo(args.field, args.guess)).find()).length;",
    "sub-query matchesKeyInQuery": "return (await new AV.Query(args.cls).matchesKeyInQuery('title', args.field, "
                                   "new AV.Query('_User').equalTo('objectId', args.id)).find()).length;",
    "CQL": "return (await AV.Query.doCloudQuery('select * from _User where ' + args.field + ' = ?', [args.guess])).results.length;",
    "CQL sub-query": "return (await AV.Query.doCloudQuery('select * from ' + args.cls + ' where author in "
                     "(select * from _User where ' + args.field + ' = ?)', [args.guess])).results.length;",
}


def assert_guesses_refused(js_sdk, a, cls):
    """Every way of GUESSES, for e-mail and phone, right and wrong: 403, the same answer for both."""
    wrong = {"email": "nobody-%s@example.com" % uuid.uuid4().hex[:8], "mobilePhoneNumber": new_phone()}
    failures = []
    for field in ("email", "mobilePhoneNumber"):
        for way, body in GUESSES.items():
            answers = {}
            for kind, guess in (("right", a[field]), ("wrong", wrong[field])):
                try:
                    value = js_sdk.run(body, field=field, guess=guess, id=a["id"], cls=cls)
                    answers[kind] = {"answered": value}
                except Exception as error:  # JSError
                    answers[kind] = {"code": getattr(error, "code", None), "message": getattr(error, "message", str(error))}
            if answers["right"].get("code") != 403 or answers["right"] != answers["wrong"]:
                failures.append((field, way, answers))
    assert not failures, "guesses at another user's personal data were not refused alike with 403:\n%s" % (
        "\n".join("  %s by %s: %s" % failure for failure in failures))


def test_another_users_email_and_phone_are_invisible_and_cannot_be_guessed_through_the_js_sdk(js_sdk, js_class):
    """User B, logged in with AV.User.logIn, sees A's posts with their author included, and A itself, but never A's
    email or mobilePhoneNumber; every query that names them (on _User, in a sub-query, in CQL) is refused with 403
    for a right guess exactly as for a wrong one. A, logged in, sees its own email and phone (fetch and include)."""
    a, created = sign_up_and_post(js_sdk, "jsb", js_class)
    a["id"] = created["id"]
    assert created["ownFetch"] == {"email": a["email"], "phone": a["mobilePhoneNumber"]}, created
    assert created["ownInclude"] == {"email": a["email"], "phone": a["mobilePhoneNumber"]}, created

    seen = js_sdk.run("""
        var b = new AV.User(); b.setUsername(args.b); b.setPassword('pass-word-2'); await b.signUp();
        await AV.User.logOut();
        await AV.User.logIn(args.b, 'pass-word-2');
        var posts = await new AV.Query(args.cls).include('author').find();
        var author = posts[0].get('author');
        var fetched = await AV.Object.createWithoutData('_User', args.id).fetch();
        var got = await new AV.Query(args.cls).include('author').get(args.post);
        return {current: AV.User.current().getUsername(), posts: posts.length,
                included: author.toJSON(), fetched: fetched.toJSON(), got: got.get('author').toJSON()};
    """, b="jsb_b_" + uuid.uuid4().hex[:8], cls=js_class, id=a["id"], post=created["post"])
    assert seen["current"].startswith("jsb_b_") and seen["posts"] == 1, seen
    for view in ("included", "fetched", "got"):
        assert seen[view]["objectId"] == a["id"] and seen[view].get("username") == a["username"], seen
        text = json.dumps(seen[view])
        assert "email" not in seen[view] and "mobilePhoneNumber" not in seen[view], seen
        assert a["email"] not in text and a["mobilePhoneNumber"] not in text, seen

    assert_guesses_refused(js_sdk, a, js_class)

    # A, logged in again, still sees its own.
    own = js_sdk.run("""
        await AV.User.logOut();
        var me = await AV.User.logIn(args.username, args.password);
        var post = await new AV.Query(args.cls).include('author').get(args.post);
        return {login: [me.getEmail(), me.getMobilePhoneNumber()],
                include: [post.get('author').get('email'), post.get('author').get('mobilePhoneNumber')]};
    """, username=a["username"], password=a["password"], cls=js_class, post=created["post"])
    assert own == {"login": [a["email"], a["mobilePhoneNumber"]], "include": [a["email"], a["mobilePhoneNumber"]]}, own


@pytest.fixture(scope="module")
def open_users_server(tmp_path_factory):
    """A server of its own whose _User class lets every client find users (the schema API's class permission), so
    that only the field rule stands between a query and other users' personal fields."""
    with running_server(tmp_path_factory, "cirrus-open-users", prepare=open_user_find) as server:
        yield server


def test_where_users_may_be_found_their_email_and_phone_still_cannot_be_named_through_the_js_sdk(browser, open_users_server):
    """With _User find open to everyone, B finds A by username (and through a sub-query on username) without A's
    email or phone, but a query or sub-query naming email or mobilePhoneNumber is still refused with 403, for a right
    guess exactly as for a wrong one (docs/SECURITY.md "Read rights": such a field may not be named)."""
    js_sdk = browser.open_sdk(open_users_server.url, APP_ID, APP_KEY)
    cls = "OpenUsersPost"
    a, created = sign_up_and_post(js_sdk, "jso", cls)
    a["id"] = created["id"]
    found = js_sdk.run("""
        var b = new AV.User(); b.setUsername(args.b); b.setPassword('pass-word-2'); await b.signUp();
        var users = await new AV.Query('_User').equalTo('username', args.username).find();
        var posts = await new AV.Query(args.cls).matchesQuery('author',
            new AV.Query('_User').equalTo('username', args.username)).include('author').find();
        return {users: users.map(function (u) { return u.toJSON(); }),
                posts: posts.map(function (p) { return p.get('author').toJSON(); })};
    """, b="jso_b_" + uuid.uuid4().hex[:8], username=a["username"], cls=cls)
    assert [u["objectId"] for u in found["users"]] == [a["id"]], found
    assert [u["objectId"] for u in found["posts"]] == [a["id"]], found
    text = json.dumps(found)
    assert a["email"] not in text and a["mobilePhoneNumber"] not in text, found

    assert_guesses_refused(js_sdk, a, cls)


# --- 4. Numbers at the edges through the JavaScript SDK. ---

INCREMENT_SCRIPT = """
    function number(x) { return x === null ? null : Number(x); }
    var o = new AV.Object(args.cls);
    if (args.start !== null) o.set('n', number(args.start));
    o.set('label', 'before');
    await o.save();
    async function stored() {
      var s = await AV.Object.createWithoutData(args.cls, o.id).fetch();
      return {n: s.has('n') ? s.get('n') : 'absent', label: s.get('label')};
    }
    async function attempt(save) {
      var copy = AV.Object.createWithoutData(args.cls, o.id);
      copy.increment('n', number(args.amount));
      copy.set('label', 'after');
      try { await save(copy); return {saved: true, stored: await stored()}; }
      catch (e) { return {code: e.code === undefined ? null : e.code, message: String(e.message), stored: await stored()}; }
    }
    var single = await attempt(function (x) { return x.save(); });
    var batched = args.batch ? await attempt(function (x) { return AV.Object.saveAll([x]); }) : null;
    return {single: single, batched: batched};
"""


def js_number(value):
    """`value` as text that JavaScript's Number() reads as the same double (amounts travel to the page as text, so
    that Infinity can; JSON carries the stored doubles back exactly)."""
    if value is None:
        return None
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value) if isinstance(value, float) else str(value)


# (start value or None for a new field, increment amount): the result is beyond ±1.7976931348623157e308.
REFUSED_INCREMENTS = [
    ("the largest double by itself", LARGEST_DOUBLE, LARGEST_DOUBLE),
    ("the lowest double by itself", -LARGEST_DOUBLE, -LARGEST_DOUBLE),
    ("1e308 by 1e308", 1e308, 1e308),
    ("an integer by Infinity (sent as null)", 5, float("inf")),
]


@pytest.mark.parametrize("start,amount", [case[1:] for case in REFUSED_INCREMENTS], ids=[case[0] for case in REFUSED_INCREMENTS])
def test_an_increment_beyond_the_largest_double_is_refused_through_the_js_sdk_and_changes_nothing(js_sdk, js_class, start, amount):
    """object.increment('n', amount).save() whose result is beyond the largest double (or not a number) is refused
    with code 1 and leaves the object as it was, a field set in the same save included; the same through
    AV.Object.saveAll, which sends a /batch (docs/SECURITY.md "Numbers at the edges")."""
    result = js_sdk.run(INCREMENT_SCRIPT, cls=js_class, start=js_number(start), amount=js_number(amount), batch=True)
    before = {"n": start, "label": "before"}
    for way in ("single", "batched"):
        attempt = result[way]
        assert attempt.get("code") == 1, (way, attempt)
        assert attempt["stored"] == before, (way, attempt)


# (start value or None for a new field, increment amount, the double stored): results within the doubles.
ACCEPTED_INCREMENTS = [
    ("a new field by the largest double", None, LARGEST_DOUBLE, LARGEST_DOUBLE),
    ("a new field by a double of 17 digits", None, 1.2345678901234567e300, 1.2345678901234567e300),
    ("the largest double by one stays the largest", LARGEST_DOUBLE, 1, LARGEST_DOUBLE),
    ("1e308 by 7e307 to just under the largest", 1e308, 7e307, 1.7e308),
    ("the largest double back to zero", LARGEST_DOUBLE, -LARGEST_DOUBLE, 0),
    ("0.1 by 0.2", 0.1, 0.2, 0.1 + 0.2),
    ("an integer by one", 41, 1, 42),
]


@pytest.mark.parametrize("start,amount,expected", [case[1:] for case in ACCEPTED_INCREMENTS],
                         ids=[case[0] for case in ACCEPTED_INCREMENTS])
def test_an_increment_up_to_the_largest_double_stores_the_exact_sum_through_the_js_sdk(js_sdk, js_class, start, amount, expected):
    """The legitimate side of the edge: object.increment('n', amount).save() whose result is a double stores
    exactly the double JavaScript computes for start + amount (the nearest one), however large, and the other
    field of the same save."""
    result = js_sdk.run(INCREMENT_SCRIPT, cls=js_class, start=js_number(start), amount=js_number(amount), batch=False)
    assert result["single"] == {"saved": True, "stored": {"n": expected, "label": "after"}}, result
