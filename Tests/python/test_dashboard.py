"""The web console (`/dashboard`, Server/Dashboard) in headless Chromium against a live `cirrus serve`.

Each test drives the page as a person would (sign-in, the class list, the data browser, the editors, the schema
screen) and then checks over plain REST, with the master key, that exactly what was typed arrived. The tests take
the screenshots in docs/dashboard/.

The server serves the page's files compiled into the binary (scripts/dashboard-embed). While working on the page
without rebuilding, set CIRRUS_TEST_DASHBOARD_DIR=$PWD/Server/Dashboard: the test server then reads the files from
there (CIRRUS_DASHBOARD_DIR; conftest passes no CIRRUS_* variable to its servers, so this file adds that one).
"""

import base64
import concurrent.futures
import contextlib
import json
import os
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY, REPO_ROOT, running_server

MASTER = {"X-LC-Id": APP_ID, "X-LC-Key": MASTER_KEY + ",master", "Content-Type": "application/json"}
APP = {"X-LC-Id": APP_ID, "X-LC-Key": APP_KEY, "Content-Type": "application/json"}
SCREENSHOTS = REPO_ROOT / "docs" / "dashboard"
WAIT = 10
# A 2×2 PNG.
PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DwHwyBNAMDA4QBAFDoB/l3ZfVsAAAAAElFTkSuQmCC"
)


@contextlib.contextmanager
def dashboard_files_from_disk():
    """With CIRRUS_TEST_DASHBOARD_DIR set, the servers started meanwhile get CIRRUS_DASHBOARD_DIR (see the module's
    docstring); otherwise nothing changes."""
    directory = os.environ.get("CIRRUS_TEST_DASHBOARD_DIR")
    if not directory:
        yield
        return
    original = subprocess.Popen

    def popen(args, **kwargs):
        if len(args) > 1 and args[1] == "serve":
            kwargs["env"] = {**(kwargs.get("env") or os.environ), "CIRRUS_DASHBOARD_DIR": str(Path(directory).resolve())}
        return original(args, **kwargs)

    subprocess.Popen = popen
    try:
        yield
    finally:
        subprocess.Popen = original


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of this module's own (sign-ins are limited per address and server)."""
    with contextlib.ExitStack() as stack:
        with dashboard_files_from_disk():
            started = stack.enter_context(running_server(tmp_path_factory, "cirrus-dashboard"))
        yield started


def rest(server, method, path, headers=MASTER, **kwargs):
    return requests.request(method, server.url + "/1.1" + path, headers=headers, timeout=30, **kwargs)


def rest_ok(server, method, path, **kwargs):
    reply = rest(server, method, path, **kwargs)
    assert reply.status_code in (200, 201), reply.text
    return reply.json()


def create_objects(server, class_name, objects, chunk=50, workers=4):
    """Creates the objects over /1.1/batch, `chunk` a request (each one transaction: one commit), a few requests at
    once; returns their ids in order."""
    chunks = [objects[start:start + chunk] for start in range(0, len(objects), chunk)]

    def send(part):
        reply = rest_ok(server, "POST", "/batch", json={"transaction": True, "requests": [
            {"method": "POST", "path": "/1.1/classes/" + class_name, "body": body} for body in part]})
        assert all("success" in item for item in reply), reply
        return [item["success"]["objectId"] for item in reply]

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return [object_id for ids in pool.map(send, chunks) for object_id in ids]


def new_class(prefix):
    return prefix + uuid.uuid4().hex[:8]


class Console:
    """The console page in the shared headless Chromium, with helpers that wait for what they need."""

    def __init__(self, driver, url):
        from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        self.url = url
        self.By = By
        self.wait = WebDriverWait(driver, WAIT, poll_frequency=0.05, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))

    # --- finding and waiting ---

    def find(self, css, within=None):
        return (within or self.driver).find_element(self.By.CSS_SELECTOR, css)

    def all(self, css, within=None):
        return (within or self.driver).find_elements(self.By.CSS_SELECTOR, css)

    def until(self, condition, message=""):
        return self.wait.until(lambda driver: condition(), message)

    def visible(self, css):
        return self.until(lambda: next((e for e in self.all(css) if e.is_displayed()), None), "nothing visible matches " + css)

    def gone(self, css):
        try:
            self.until(lambda: not any(e.is_displayed() for e in self.all(css)))
        except Exception:
            raise AssertionError("%s is still visible: %s" % (css, [e.text for e in self.all(css)])) from None

    def click(self, css):
        element = self.visible(css)
        element.click()
        return element

    def type(self, css, text, within=None):
        element = self.find(css, within) if within else self.visible(css)
        element.clear()
        element.send_keys(text)
        return element

    def scroll_to_start(self, css):
        self.driver.execute_script("arguments[0].scrollTo(0, 0)", self.find(css))

    def screenshot(self, name):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(SCREENSHOTS / (name + ".png")))

    # --- session ---

    def load(self, hash_=""):
        self.driver.get(self.url + "/dashboard" + ("#" + hash_ if hash_ else ""))
        self.until(lambda: self.all("form.signin") or self.all(".layout"), "the console did not start")

    def signed_in_as(self):
        who = self.all(".top .who")
        return who[0].text if who else None

    def sign_in_with_master_key(self, key=MASTER_KEY):
        self.click("button[data-mode=master]")
        self.type("input[name=masterKey]", key)
        self.click("button[name=signIn]")

    def sign_in_with_password(self, username, password):
        self.click("button[data-mode=user]")
        self.type("input[name=username]", username)
        self.type("input[name=password]", password)
        self.click("button[name=signIn]")

    def ensure_master(self):
        """Signed in with the master key (one sign-in at most: the cookie usually still holds the session)."""
        self.load()
        if self.signed_in_as() == "master key · admin":
            return
        if self.all(".layout"):
            self.click("button[name=signOut]")
            self.visible("form.signin")
        self.sign_in_with_master_key()
        self.until(lambda: self.signed_in_as() == "master key · admin", "the master key did not sign in")

    # --- classes and the data browser ---

    def open_class(self, class_name, hash_=None):
        self.driver.get(self.url + "/dashboard#" + (hash_ or "/class/" + class_name))
        self.ready()

    def ready(self):
        self.until(lambda: any(e.get_attribute("data-state") == "ready" for e in self.all(".browser")), "the table did not load")

    def row_ids(self):
        self.ready()
        return self.driver.execute_script(
            "return [...document.querySelectorAll('table.data tbody tr[data-id]')].map(row => row.dataset.id)")

    def cell(self, object_id, field):
        return self.find('table.data tr[data-id="%s"] td[data-field="%s"]' % (object_id, field))

    def edit(self, object_id, field, double_click=False):
        """Opens the cell's editor with its edit button (shown while the pointer is over the cell), or by a double
        click; returns the dialog."""
        from selenium.webdriver.common.action_chains import ActionChains

        def attempt():
            # The row may be drawn again (a reload, a live change) between finding the cell and clicking it: a stale
            # cell is found again, unless the click got through.
            if any(dialog.is_displayed() for dialog in self.all("dialog[open]")):
                return True
            cell = self.cell(object_id, field)
            if double_click:
                ActionChains(self.driver, duration=0).double_click(cell).perform()
            else:
                ActionChains(self.driver, duration=0).move_to_element(cell).click(self.find("button[name=editCell]", cell)).perform()
            return True

        self.until(attempt, "the editor of %s.%s did not open" % (object_id, field))
        return self.visible("dialog[open]")

    def press(self, dialog, action):
        self.find('button[data-action="%s"]' % action, dialog).click()

    def save_cell(self, object_id, field, fill):
        """Edits a cell: `fill(dialog)` types the value; saves and waits for the dialog to close and the row to reload."""
        dialog = self.edit(object_id, field)
        fill(dialog)
        before = self.cell(object_id, field)
        self.press(dialog, "save")
        self.gone("dialog[open]")
        self.until(lambda: self._replaced(before), "the row did not reload")

    @staticmethod
    def _replaced(element):
        from selenium.common.exceptions import StaleElementReferenceException

        try:
            element.tag_name
            return False
        except StaleElementReferenceException:
            return True

    def dialog_error(self):
        return self.visible("dialog[open] .error").text

    def resources(self):
        """The URLs the page fetched since it loaded (Resource Timing)."""
        return self.driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")


@pytest.fixture
def console(browser, server):
    browser.driver.set_window_size(1440, 900)
    page = Console(browser.driver, server.url)
    page.ensure_master()
    return page


@pytest.fixture
def author(server):
    """A class `Author` with one object: the target of the pointer and relation columns."""
    class_name = new_class("Author")
    object_id = rest_ok(server, "POST", "/classes/" + class_name, json={"name": "Ada"})["objectId"]
    return class_name, object_id


@pytest.mark.sqlite_only("sign-in is the console's cookie and the accounts' password check, tested on both stores in Swift")
def test_signs_in_with_the_master_key_shows_a_wrong_keys_error_stays_signed_in_on_reload_and_signs_out(browser, server):
    browser.driver.set_window_size(1440, 900)
    page = Console(browser.driver, server.url)
    browser.driver.get(server.url + "/dashboard")
    browser.driver.delete_all_cookies()
    page.load()
    page.visible("form.signin")

    page.sign_in_with_master_key("not-the-master-key")
    error = page.visible("form.signin .error").text
    assert error and error != "HTTP 401", error
    assert page.signed_in_as() is None
    page.screenshot("signin")

    page.sign_in_with_master_key()
    page.until(lambda: page.signed_in_as() == "master key · admin", "not signed in")
    # Nothing secret in the page's storage or markup; the session is an HttpOnly cookie the script cannot read.
    storage = browser.driver.execute_script(
        "return [localStorage.length, sessionStorage.length, document.cookie, document.documentElement.outerHTML]")
    assert storage[:3] == [0, 0, ""], storage[:3]
    assert MASTER_KEY not in storage[3]

    page.load()
    assert page.signed_in_as() == "master key · admin", "a reload signed the console out"

    page.click("button[name=signOut]")
    page.visible("form.signin")
    page.load()
    page.visible("form.signin")
    page.sign_in_with_master_key()
    page.until(lambda: page.signed_in_as() == "master key · admin", "not signed in again")


def add_column(page, name, type_, target=None, flags=()):
    page.type("input[name=columnName]", name)
    page.find("select[name=columnType]").send_keys(type_)
    if target:
        page.type("input[name=targetClass]", target)
    for flag in flags:
        page.find("form.add-column input[name=%s]" % flag).click()
    page.click("button[name=addColumn]")
    page.visible('.columns-table tr[data-field="%s"]' % name)


COLUMNS = [
    ("title", "String"), ("count", "Number"), ("ratio", "Number"), ("done", "Boolean"), ("due", "Date"),
    ("meta", "Object"), ("tags", "Array"), ("author", "Pointer"), ("fans", "Relation"), ("attachment", "File"),
    ("place", "GeoPoint"), ("blob", "Bytes"),
]
NESTED = '{"a": [1, 2.5, 1.0, {"b": null, "c": "x\\"y"}], "big": 9007199254740993, "t": true}'


def test_creates_a_class_adds_columns_of_every_type_edits_every_cell_and_rest_reads_back_exactly_what_was_typed(console, server, author):
    page = console
    author_class, author_id = author
    class_name = new_class("Dash")
    page.load()
    page.click("button[name=newClass]")
    page.type("dialog[open] input[name=className]", class_name)
    page.press(page.visible("dialog[open]"), "create")
    page.visible(".schema")
    for name, type_ in COLUMNS:
        add_column(page, name, type_, target=author_class if type_ in ("Pointer", "Relation") else None,
                   flags=("read_only",) if name == "title" else ())
    schema = rest_ok(server, "GET", "/schemas/" + class_name)
    for name, type_ in COLUMNS:
        assert schema[name]["type"] == type_, schema
    assert schema["author"]["className"] == author_class and schema["fans"]["className"] == author_class, schema
    assert schema["title"].get("read_only") is True, schema
    page.find('.columns-table tr[data-field="title"] input[name=read_only]').click()  # the flag off again
    page.until(lambda: rest_ok(server, "GET", "/schemas/" + class_name)["title"].get("read_only") is None, "flag not removed")
    page.scroll_to_start(".content")
    page.screenshot("schema")

    # A row from the form, then every cell typed in its editor.
    page.open_class(class_name)
    page.click("button[name=addRow]")
    form = page.visible("dialog[open]")
    page.type('.form-field[data-field="title"] textarea', "first row", within=form)
    page.press(form, "create")
    page.gone("dialog[open]")
    page.until(lambda: len(page.row_ids()) == 1, "the new row is not listed")
    object_id = page.row_ids()[0]

    def fill_text(selector, text):
        return lambda dialog: page.type(selector, text, within=dialog)

    page.save_cell(object_id, "title", fill_text("textarea", "Hello, <b>world</b> & \"quotes\""))
    page.save_cell(object_id, "count", fill_text("input[name=value]", "7"))
    page.save_cell(object_id, "ratio", fill_text("input[name=value]", "2.5"))
    page.save_cell(object_id, "done", lambda dialog: page.find("select[name=value]", dialog).send_keys("true"))
    page.save_cell(object_id, "due", fill_text("input[name=value]", "2024-05-01T12:34:56.789Z"))

    # Invalid JSON is refused with a message, and nothing is sent.
    dialog = page.edit(object_id, "meta", double_click=True)
    page.type("textarea", '{"a": 1,', within=dialog)
    page.press(dialog, "save")
    assert "Invalid JSON" in page.dialog_error()
    page.type("textarea", NESTED, within=dialog)
    page.press(dialog, "save")
    page.gone("dialog[open]")

    page.save_cell(object_id, "tags", fill_text("textarea", '["x", 2, 3.0, {"deep": [null]}]'))
    page.save_cell(object_id, "author", fill_text("input[name=value]", author_id))
    page.save_cell(object_id, "fans", fill_text("input[name=add]", author_id))

    def fill_place(dialog):
        page.type("input[name=latitude]", "39.9042", within=dialog)
        page.type("input[name=longitude]", "-116.4074", within=dialog)

    page.save_cell(object_id, "place", fill_place)
    page.save_cell(object_id, "blob", fill_text("textarea", base64.b64encode(b"\x00\x01binary\xff").decode()))

    def fill_acl(dialog):
        page.find('tr[data-who="*"] input[name=write]', dialog).click()  # public: read only
        page.find("button[name=addEntry]", dialog).click()
        entry = page.all(".acl tbody tr", dialog)[-1]
        page.find("input[name=who]", entry).send_keys("role:Editors")
        page.find("input[name=read]", entry).click()
        page.find("input[name=write]", entry).click()
        page.screenshot("cell-editor")

    page.save_cell(object_id, "ACL", fill_acl)

    reply = rest(server, "GET", "/classes/%s/%s" % (class_name, object_id), params={"returnACL": "true"})
    assert reply.status_code == 200, reply.text
    stored = reply.json()
    assert stored["title"] == "Hello, <b>world</b> & \"quotes\""
    assert stored["count"] == 7 and type(stored["count"]) is int, reply.text  # JSON 7, not 7.0
    assert '"count":7,' in reply.text.replace(" ", "") or '"count":7}' in reply.text.replace(" ", ""), reply.text
    assert stored["ratio"] == 2.5 and type(stored["ratio"]) is float
    assert stored["done"] is True
    assert stored["due"] == {"__type": "Date", "iso": "2024-05-01T12:34:56.789Z"}
    assert stored["meta"] == json.loads(NESTED)
    assert type(stored["meta"]["a"][2]) is float and stored["meta"]["big"] == 9007199254740993, reply.text
    assert stored["tags"] == ["x", 2, 3.0, {"deep": [None]}] and type(stored["tags"][2]) is float
    assert stored["author"] == {"__type": "Pointer", "className": author_class, "objectId": author_id}
    assert stored["place"] == {"__type": "GeoPoint", "latitude": 39.9042, "longitude": -116.4074}
    assert stored["blob"] == {"__type": "Bytes", "base64": base64.b64encode(b"\x00\x01binary\xff").decode()}
    assert stored["ACL"] == {"*": {"read": True}, "role:Editors": {"read": True, "write": True}}
    related = rest_ok(server, "GET", "/classes/" + author_class, params={"where": json.dumps(
        {"$relatedTo": {"object": {"__type": "Pointer", "className": class_name, "objectId": object_id}, "key": "fans"}})})
    assert [o["objectId"] for o in related["results"]] == [author_id]

    # Cells show what was typed, as text (no markup is interpreted).
    assert page.cell(object_id, "title").text == "Hello, <b>world</b> & \"quotes\""
    assert not page.all("td[data-field=title] b")
    assert page.cell(object_id, "count").text == "7" and page.cell(object_id, "tags").text == '["x",2,3.0,{"deep":[null]}]'
    # A few more rows, for the screenshot.
    create_objects(server, class_name, [{
        "title": title, "count": n, "ratio": n / 4, "done": n % 2 == 0, "tags": ["t%d" % n],
        "due": {"__type": "Date", "iso": "2024-06-%02dT09:00:00.000Z" % (n + 1)},
        "place": {"__type": "GeoPoint", "latitude": 30 + n, "longitude": 120 + n},
        "author": {"__type": "Pointer", "className": author_class, "objectId": author_id}, "meta": {"n": n},
    } for n, title in enumerate(["Quarterly report", "Launch notes", "Café menu — été", "日本語のタイトル"])])
    page.click("button[name=refresh]")
    page.until(lambda: len(page.row_ids()) == 5, "the new rows are not listed")
    page.scroll_to_start(".table-wrap")
    page.screenshot("browser")

    # Unset sends a Delete.
    dialog = page.edit(object_id, "ratio")
    page.press(dialog, "unset")
    page.gone("dialog[open]")
    page.until(lambda: "ratio" not in rest_ok(server, "GET", "/classes/%s/%s" % (class_name, object_id)), "ratio still set")

    # A pointer leads to its object; a relation's "browse" to its members.
    page.ready()
    page.find("a.pointer", page.cell(object_id, "author")).click()
    page.until(lambda: author_class in page.driver.current_url, "the pointer did not navigate")
    assert page.row_ids() == [author_id]
    page.driver.back()
    page.ready()
    page.find("a.relation", page.cell(object_id, "fans")).click()
    page.until(lambda: "relatedTo" in page.driver.current_url, "the relation did not navigate")
    assert page.row_ids() == [author_id]


@pytest.mark.sqlite_only("file contents live in the file storage, not the store")
def test_uploads_a_file_into_a_file_cell_and_previews_the_image(console, server, tmp_path):
    page = console
    class_name = new_class("Files")
    rest_ok(server, "POST", "/schemas/" + class_name, json={"fields": {"picture": {"type": "File"}}})
    object_id = rest_ok(server, "POST", "/classes/" + class_name, json={})["objectId"]
    picture = tmp_path / "pixel.png"
    picture.write_bytes(PIXEL_PNG)
    page.load()
    page.open_class(class_name)
    page.save_cell(object_id, "picture", lambda dialog: page.find("input[type=file]", dialog).send_keys(str(picture)))

    stored = rest_ok(server, "GET", "/classes/%s/%s" % (class_name, object_id))["picture"]
    assert stored["__type"] == "File" and stored["name"] == "pixel.png", stored
    assert requests.get(stored["url"], timeout=10).content == PIXEL_PNG
    image = page.find("img.thumb", page.cell(object_id, "picture"))
    page.until(lambda: page.driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 2,
               "the preview did not load")


def test_filters_build_a_where_and_the_table_shows_only_the_matching_rows(console, server, author):
    page = console
    author_class, author_id = author
    class_name = new_class("Filter")
    names = ["a.b", "axb", "alpha", "beta", "a(b)"]
    objects = [{"name": names[i % len(names)], "score": i, **({"author": {"__type": "Pointer", "className": author_class,
                                                                          "objectId": author_id}} if i % 3 == 0 else {})}
               for i in range(30)]
    ids = create_objects(server, class_name, objects)
    by_id = dict(zip(ids, objects))
    page.load()
    page.open_class(class_name)
    assert len(page.row_ids()) == 30
    newest_first = page.row_ids()

    # Sorting by a column's header: ascending, descending, then the default order again.
    for order, expected in (("score", sorted(ids, key=lambda i: by_id[i]["score"])),
                            ("-score", sorted(ids, key=lambda i: -by_id[i]["score"])), ("-createdAt", newest_first)):
        page.find('th[data-field="score"] a.sort').click()
        page.until(lambda: page.driver.current_url.endswith("order=" + order) or (order == "-createdAt" and "order" not in page.driver.current_url),
                   "the header did not sort by " + order)
        page.until(lambda: page.row_ids() == expected, "not sorted by " + order)

    # The column chooser hides and shows a column.
    page.click("details.columns summary")
    page.find('details.columns input[value="name"]').click()
    page.gone('th[data-field="name"]')
    page.find('details.columns input[value="name"]').click()
    page.visible('th[data-field="name"]')
    page.click("details.columns summary")

    def build(*conditions):
        if not page.find(".filters").is_displayed():
            page.click("button[name=toggleFilter]")
        for remove in page.all(".filter-row button[name=removeCondition]"):
            remove.click()
        for field, op, value in conditions:
            page.click("button[name=addCondition]")
            row = page.all(".filter-row")[-1]
            page.find("input[name=field]", row).send_keys(field)
            page.find("select[name=op]", row).send_keys(op)
            if value is not None:
                page.find("input[name=value]", row).send_keys(value)
        page.click("button[name=applyFilter]")
        page.ready()
        return set(page.row_ids())

    shown = build(("score", ">=", "10"), ("score", "<", "20"))
    assert shown == {i for i, o in by_id.items() if 10 <= o["score"] < 20}
    assert json.loads(page.find("textarea[name=where]").get_attribute("value")) == {"score": {"$gte": 10, "$lt": 20}}
    page.screenshot("filters")

    assert build(("name", "contains", "a.b")) == {i for i, o in by_id.items() if o["name"] == "a.b"}  # the dot is escaped
    assert build(("name", "starts with", "a(")) == {i for i, o in by_id.items() if o["name"] == "a(b)"}
    assert build(("author", "equals", author_id)) == {i for i, o in by_id.items() if "author" in o}
    assert build(("author", "does not exist", None), ("score", "in list", "1, 2, 3")) == {
        i for i, o in by_id.items() if "author" not in o and o["score"] in (1, 2)}
    assert build(("name", "not in list", "alpha, beta"), ("score", "<=", "4")) == {
        i for i, o in by_id.items() if o["name"] not in ("alpha", "beta") and o["score"] <= 4}
    # The where survives a reload (it is in the address).
    page.driver.refresh()
    page.ready()
    assert set(page.row_ids()) == {i for i, o in by_id.items() if o["name"] not in ("alpha", "beta") and o["score"] <= 4}


def test_pages_through_10000_objects_by_keyset_without_repeating_or_skipping_and_counts_only_when_asked(console, server):
    page = console
    class_name = new_class("Many")
    started = time.monotonic()
    create_objects(server, class_name, [{"n": i} for i in range(10000)])
    print("created 10 000 objects in %.1f s" % (time.monotonic() - started))
    expected = []
    cursor = None
    while len(expected) < 700:  # the first 700 in the console's order, read over REST
        where = {} if cursor is None else {"$or": [{"createdAt": {"$lt": cursor[0]}},
                                                   {"createdAt": cursor[0], "objectId": {"$lt": cursor[1]}}]}
        batch = rest_ok(server, "GET", "/classes/" + class_name, params={
            "order": "-createdAt,-objectId", "limit": 1000, "where": json.dumps(where)})["results"]
        expected += [o["objectId"] for o in batch]
        cursor = ({"__type": "Date", "iso": batch[-1]["createdAt"]}, batch[-1]["objectId"])

    page.load()
    page.driver.execute_script("performance.setResourceTimingBufferSize(10000)")
    page.open_class(class_name)
    counter = page.find('button[data-count="%s"]' % class_name)
    assert counter.text == "count"
    pages = [page.row_ids()]
    for number in range(2, 8):
        page.click("button[name=next]")
        page.until(lambda: page.row_ids() and page.row_ids() != pages[-1], "the next page did not load")
        pages.append(page.row_ids())
        assert page.find(".pager .range").text == "rows %d–%d" % ((number - 1) * 100 + 1, number * 100)
    flat = [object_id for ids in pages for object_id in ids]
    assert all(len(ids) == 100 for ids in pages)
    assert flat == expected[:700], "pages repeat or skip objects"
    for back in (5, 4):
        page.click("button[name=previous]")
        page.until(lambda: page.row_ids() == pages[back], "the previous page is not the same as before")

    fetched = page.resources()
    assert not [url for url in fetched if "count=1" in url], "the console counted without being asked"
    assert not [url for url in fetched if "skip=" in url], "the default order paged with skip"
    counter.click()
    page.until(lambda: counter.text == "10,000", "the count is not shown")
    assert [url for url in page.resources() if "count=1" in url]

    # Another order pages with skip (up to 10 000 rows).
    page.find('th[data-field="n"] a.sort').click()
    page.until(lambda: "order=n" in page.driver.current_url, "not sorted by n")
    values = lambda: page.driver.execute_script(
        "return [...document.querySelectorAll('table.data tbody td[data-field=n] .value')].map(span => span.textContent)")
    page.until(lambda: values()[:3] == ["0", "1", "2"], "not sorted by n")
    page.click("button[name=next]")
    page.until(lambda: values()[:1] == ["100"] and len(values()) == 100, "the second page by n is wrong")
    assert [url for url in page.resources() if "skip=100" in url and "order=n%2CobjectId" in url]


def test_a_class_permission_closed_in_the_console_makes_the_rest_api_refuse(console, server):
    page = console
    class_name = new_class("Perm")
    assert rest(server, "POST", "/classes/" + class_name, headers=APP, json={"n": 1}).status_code == 201
    page.load("/schema/" + class_name)
    row = page.visible('.permissions tr[data-operation="create"]')
    page.find("select[name=who]", row).send_keys("only these roles and users")
    page.click("button[name=savePermissions]")
    page.until(lambda: "saved" in page.visible(".schema .notice").text, "no confirmation")

    permissions = rest_ok(server, "GET", "/schemas/" + class_name, params={"full": 1})["classLevelPermissions"]
    assert permissions["create"] == {"roles": [], "users": []}, permissions
    assert permissions["find"] == {"*": True}, permissions
    refused = rest(server, "POST", "/classes/" + class_name, headers=APP, json={"n": 2})
    assert refused.status_code == 403, refused.text
    assert rest(server, "GET", "/classes/" + class_name, headers=APP).status_code == 200
    assert rest(server, "POST", "/classes/" + class_name, json={"n": 3}).status_code == 201  # the master key still may


def test_the_open_class_shows_updates_deletes_and_new_objects_made_elsewhere_without_a_refresh(console, server):
    page = console
    class_name = new_class("Live")
    ids = create_objects(server, class_name, [{"n": i, "title": "row %d" % i} for i in range(3)])
    page.open_class(class_name)
    page.until(lambda: page.find(".browser .live").get_attribute("data-live") == "live", "the live view did not connect")
    rows_before = page.row_ids()
    assert set(rows_before) == set(ids)

    # Changes made over REST, as another client would: the page learns of them from the change log.
    rest_ok(server, "PUT", "/classes/%s/%s" % (class_name, ids[0]), json={"title": "changed elsewhere"})
    page.until(lambda: "changed elsewhere" in page.cell(ids[0], "title").text, "the update did not show")
    assert rest(server, "DELETE", "/classes/%s/%s" % (class_name, ids[1])).status_code == 200
    page.until(lambda: "gone" in page.find('table.data tr[data-id="%s"]' % ids[1]).get_attribute("class"), "the delete did not show")
    create_objects(server, class_name, [{"n": 10}, {"n": 11}])
    create_objects(server, new_class("Other"), [{"n": 0}])  # another class's change is not this view's
    page.until(lambda: page.find(".browser .created").is_displayed() and page.find(".browser .created").text.startswith("2 new objects"),
               "the new objects were not counted")
    page.screenshot("live")
    assert page.row_ids() == rows_before  # the page does not move under the reader's eyes
    page.click("button[name=showCreated]")
    page.until(lambda: len(page.row_ids()) == 4, "showing the new objects did not reload the page")
    assert not page.find(".browser .created").is_displayed()


def test_a_request_log_file_gets_every_request_without_credentials_and_the_console_reads_it(tmp_path_factory, tmp_path):
    log = tmp_path / "logs" / "requests.log"
    with dashboard_files_from_disk(), running_server(tmp_path_factory, "cirrus-request-log", ("--request-log", str(log))) as own:
        missing = requests.get(own.url + "/1.1/classes/Note/missing1", headers=APP, timeout=10)
        assert missing.status_code == 404
        requests.get(own.url + "/auth/reset-password?token=LINK-SECRET", timeout=10)
        signed = requests.post(own.url + "/dashboard/session", json={"masterKey": MASTER_KEY}, timeout=10)
        assert signed.status_code == 200, signed.text
        found = []
        for _ in range(100):
            reply = requests.get(own.url + "/dashboard/requests", params={"source": "file", "status": "4xx"}, cookies=signed.cookies, timeout=10)
            assert reply.status_code == 200, reply.text
            found = reply.json()["results"]
            if len(found) >= 2:
                break
            time.sleep(0.1)
        assert any(entry["path"] == "/1.1/classes/Note/missing1" and entry["code"] == 101 for entry in found), found
        assert any(entry["path"] == "/auth/reset-password?token=•••" for entry in found), found
        lines = [json.loads(line) for line in log.read_text().splitlines()]
        assert any(line["path"] == "/1.1/classes/Note/missing1" and line["status"] == 404 for line in lines), lines
        assert "LINK-SECRET" not in log.read_text() and MASTER_KEY not in log.read_text()
    # Without the flag the console says there is no file.
    with dashboard_files_from_disk(), running_server(tmp_path_factory, "cirrus-no-request-log") as plain:
        signed = requests.post(plain.url + "/dashboard/session", json={"masterKey": MASTER_KEY}, timeout=10)
        assert requests.get(plain.url + "/dashboard/requests", params={"source": "file"}, cookies=signed.cookies, timeout=10).status_code == 404


def test_a_live_view_ends_when_the_server_shuts_down_and_needs_a_session(tmp_path_factory):
    with dashboard_files_from_disk(), running_server(tmp_path_factory, "cirrus-live-stream") as own:
        assert requests.get(own.url + "/dashboard/changes?className=Post", timeout=10).status_code == 401
        signed = requests.post(own.url + "/dashboard/session", json={"masterKey": MASTER_KEY}, timeout=10)
        assert signed.status_code == 200, signed.text
        cookies = signed.cookies
        assert requests.get(own.url + "/dashboard/changes", cookies=cookies, timeout=10).status_code == 400
        stream = requests.get(own.url + "/dashboard/changes?className=Post", cookies=cookies, stream=True, timeout=10)
        assert stream.status_code == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        lines = stream.iter_lines(decode_unicode=True)
        assert next(lines).startswith("retry:")
        created = requests.post(own.url + "/1.1/classes/Post", headers=MASTER, json={"title": "hello"}, timeout=10).json()
        events = []
        for line in lines:
            if line.startswith("data:"):
                events.append(json.loads(line[5:]))
                break
        assert events == [{"kind": "created", "className": "Post", "objectId": created["objectId"]}]
        started = time.monotonic()
        own.process.terminate()
        own.process.wait(timeout=30)  # the open stream does not hold the shutdown up
        assert time.monotonic() - started < 20
        assert own.process.returncode == 0, own.output()
        stream.close()


@pytest.mark.sqlite_only("the page's batches; batch deletes are tested on both stores in Swift")
def test_rows_are_added_cloned_deleted_by_selection_and_deleted_by_filter_after_showing_the_count(console, server):
    page = console
    class_name = new_class("Rows")
    ids = create_objects(server, class_name, [{"n": i, "kind": "old" if i < 8 else "new"} for i in range(12)])
    page.load()
    page.open_class(class_name)

    # Clone the row of n = 3: a new object with the same fields.
    source = ids[3]
    page.find('tr[data-id="%s"] input[name=select]' % source).click()
    page.click("button[name=cloneRow]")
    page.press(page.visible("dialog[open]"), "create")
    page.gone("dialog[open]")
    clones = rest_ok(server, "GET", "/classes/" + class_name, params={"where": json.dumps({"n": 3})})["results"]
    assert len(clones) == 2 and {c["kind"] for c in clones} == {"old"}

    # Delete two selected rows through /batch.
    page.ready()
    for object_id in ids[10:12]:
        page.find('tr[data-id="%s"] input[name=select]' % object_id).click()
    page.click("button[name=deleteRows]")
    page.press(page.visible("dialog[open]"), "confirm")
    page.gone("dialog[open]")
    page.until(lambda: not set(ids[10:12]) & set(page.row_ids()), "the rows are still listed")
    assert rest_ok(server, "GET", "/classes/" + class_name, params={"count": 1, "limit": 0})["count"] == 11

    # Delete by filter: the count first, then only the matching objects.
    page.driver.get(server.url + "/dashboard#/class/%s?where=%s" % (class_name, json.dumps({"kind": "old"})))
    page.ready()
    page.click("button[name=deleteByFilter]")
    dialog = page.visible("dialog[open]")
    assert "9 objects" in dialog.text, dialog.text
    page.press(dialog, "confirm")
    assert "Type 9" in page.dialog_error()
    page.type("input[name=confirm]", "9", within=dialog)
    page.press(dialog, "confirm")
    page.gone("dialog[open]")
    page.until(lambda: page.row_ids() == [], "the matching rows are still listed")
    assert page.visible(".browser .notice").text == "Deleted 9 objects."
    left = rest_ok(server, "GET", "/classes/" + class_name, params={"limit": 100})["results"]
    assert sorted(o["n"] for o in left) == [8, 9]


def test_drops_a_column_and_an_empty_class_once_their_names_are_typed_and_sets_the_default_acl(console, server):
    page = console
    class_name = new_class("Drop")
    rest_ok(server, "POST", "/schemas/" + class_name, json={"fields": {"keep": {"type": "String"}, "old": {"type": "Number"}}})
    page.load("/schema/" + class_name)
    page.find('.columns-table tr[data-field="old"] button[name=dropColumn]').click()
    dialog = page.visible("dialog[open]")
    page.type("input[name=confirm]", "old", within=dialog)
    page.press(dialog, "confirm")
    page.until(lambda: "old" not in rest_ok(server, "GET", "/schemas/" + class_name), "the column was not dropped")
    assert "keep" in rest_ok(server, "GET", "/schemas/" + class_name)

    page.visible('.acl tr[data-who="*"] input[name=read]').click()
    page.click("button[name=saveDefaultACL]")
    page.until(lambda: rest_ok(server, "GET", "/schemas/" + class_name, params={"full": 1}).get("defaultACL") == {"*": {"read": True}},
               "the default ACL was not saved")
    made = rest_ok(server, "POST", "/classes/" + class_name, json={"keep": "x"})
    assert rest_ok(server, "GET", "/classes/%s/%s" % (class_name, made["objectId"]), params={"returnACL": "true"})["ACL"] == {
        "*": {"read": True}}

    # A class with objects is not dropped: the server's refusal is shown.
    page.click("button[name=dropClass]")
    dialog = page.visible("dialog[open]")
    page.type("input[name=confirm]", class_name, within=dialog)
    page.press(dialog, "confirm")
    page.gone("dialog[open]")
    assert page.visible(".content .error, .schema .error").text
    rest_ok(server, "DELETE", "/classes/%s/%s" % (class_name, made["objectId"]))
    page.click("button[name=dropClass]")
    dialog = page.visible("dialog[open]")
    page.type("input[name=confirm]", class_name[:-1], within=dialog)
    page.press(dialog, "confirm")
    assert "exactly" in page.dialog_error()
    page.type("input[name=confirm]", class_name, within=dialog)
    page.press(dialog, "confirm")
    page.until(lambda: rest(server, "GET", "/schemas/" + class_name).status_code == 404, "the class was not dropped")
    page.until(lambda: not page.all('.classes li[data-class-name="%s"]' % class_name), "the class is still listed")


@pytest.fixture
def viewer(server):
    """A user in the role DashboardViewer."""
    username, password = "viewer_" + uuid.uuid4().hex[:8], "viewer-pass-1"
    user = rest_ok(server, "POST", "/users", json={"username": username, "password": password})
    role = rest(server, "POST", "/roles", json={
        "name": "DashboardViewer", "ACL": {"*": {"read": True}},
        "users": {"__op": "AddRelation", "objects": [{"__type": "Pointer", "className": "_User", "objectId": user["objectId"]}]}})
    assert role.status_code == 201, role.text
    return username, password


@pytest.mark.sqlite_only("what the page shows a viewer; the server's refusals are tested on both stores in Swift")
def test_a_viewer_sees_no_editing_controls(console, server, viewer):
    page = console
    class_name = new_class("View")
    ids = create_objects(server, class_name, [{"n": i} for i in range(3)])
    page.click("button[name=signOut]")
    page.visible("form.signin")
    page.sign_in_with_password(*viewer)
    page.until(lambda: page.signed_in_as() == "%s · viewer" % viewer[0], "the viewer is not signed in")
    try:
        page.open_class(class_name)
        assert set(page.row_ids()) == set(ids)
        for control in ("button[name=addRow]", "button[name=cloneRow]", "button[name=deleteRows]",
                        "button[name=deleteByFilter]", "button[name=newClass]", "input[name=select]", "td[tabindex]",
                        "button[name=editCell]"):
            assert not page.all(control), control + " is offered to a viewer"
        page.driver.execute_script(
            "arguments[0].dispatchEvent(new MouseEvent('dblclick', {bubbles: true}))", page.cell(ids[0], "n"))
        time.sleep(0.3)
        assert not page.all("dialog[open]")
        page.click("button[name=toggleFilter]")  # reading stays possible
        page.click("button[name=countMatching]")
        page.until(lambda: page.find(".matching").text == "3 matching", "a viewer cannot count")

        page.load("/schema/" + class_name)
        page.visible(".schema")
        for control in ("form.add-column", "button[name=dropColumn]", "button[name=dropClass]", "button[name=savePermissions]",
                        "button[name=saveDefaultACL]", "button[name=editDefault]", "form.add-index", "button[name=dropIndex]"):
            assert not page.all(control), control + " is offered to a viewer"
        # Every flag is shown disabled; only the query plan's fields (a read) take input.
        assert all(not e.is_enabled() for e in page.all(".schema input:not([name=explainOrder]), .schema select"))
        assert page.all("form.explain button[name=explain]"), "a viewer can read a query plan"
    finally:
        page.click("button[name=signOut]")
        page.visible("form.signin")
