"""The web console's administration screens (users, roles, files, CQL and REST consoles, request log, settings,
import and export, a class's column flags and indexes, a user's account) in headless Chromium against a live
`cirrus serve`, each checked over plain REST afterwards.

The server, the page helpers and the viewer come from test_dashboard.py (see its docstring for
CIRRUS_TEST_DASHBOARD_DIR, which serves the page from Server/Dashboard without a rebuild). The tests take the
screenshots users, roles, files, cql, requests, settings, import, schema and account in docs/dashboard/.
"""

import io
import json
import tarfile
import uuid

import pytest
import requests

from conftest import APP_ID, APP_KEY, MASTER_KEY
from test_dashboard import APP, PIXEL_PNG, Console, create_objects, new_class, rest, rest_ok, server, viewer  # noqa: F401

assert server and viewer  # fixtures of this module too (a server of its own: sign-ins are limited per server)

pytestmark = pytest.mark.sqlite_only("the screens drive the REST API; the store's behaviour is tested elsewhere on both stores")


class AdminConsole(Console):
    def screen(self, hash_, ready_css):
        """Opens a screen by its route (a fresh page load, so it reads everything again) and waits for `ready_css`."""
        self.driver.get(self.url + "/dashboard#/" + hash_)
        self.driver.refresh()
        self.until(lambda: self.all(ready_css), "the screen %s did not show %s" % (hash_, ready_css))

    def rows(self, within=""):
        return self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ' table.data tbody tr[data-id]')].map(r => r.dataset.id)"
            ".filter(Boolean)", within)

    def row(self, object_id, within=""):
        return self.visible('%s table.data tr[data-id="%s"]' % (within, object_id))

    def notice(self):
        return self.visible(".screen .notice:not([hidden])").text


@pytest.fixture
def console(browser, server):  # noqa: F811
    browser.driver.set_window_size(1440, 900)
    page = AdminConsole(browser.driver, server.url)
    page.ensure_master()
    return page


def sign_up(server, **fields):  # noqa: F811
    reply = rest(server, "POST", "/users", headers=APP, json=fields)
    assert reply.status_code == 201, reply.text
    return reply.json()


def log_in(server, username, password):  # noqa: F811
    return rest(server, "POST", "/login", headers=APP, json={"username": username, "password": password})


def test_users_are_found_by_a_prefix_get_a_new_password_and_a_verified_email_and_phone(console, server):  # noqa: F811
    page = console
    prefix = "u" + uuid.uuid4().hex[:6]
    ann = sign_up(server, username=prefix + ".ann", password="old-pass", email=prefix + "@example.com",
                  mobilePhoneNumber="+86186%08d" % (int(uuid.uuid4().int % 10**8)))
    bob = sign_up(server, username=prefix + "xbob", password="bob-pass")  # "." of the prefix must match literally
    for name in ("Quinn", "Robin"):
        sign_up(server, username=name.lower() + uuid.uuid4().hex[:4], password="p", email=name.lower() + "@example.org")

    page.screen("users", ".users[data-state=ready]")
    page.type(".users input[name=search]", prefix + ".")
    page.click("button[name=searchUsers]")
    page.until(lambda: page.rows(".users") == [ann["objectId"]], "the search did not find exactly the user")
    row = page.row(ann["objectId"])
    assert page.find('td[data-field="username"]', row).text == prefix + ".ann"
    assert page.find('td[data-field="emailVerified"]', row).text == "false"
    page.type(".users input[name=search]", prefix)
    page.click("button[name=searchUsers]")
    page.until(lambda: set(page.rows(".users")) == {ann["objectId"], bob["objectId"]}, "the search did not find both users")

    # A new password, typed twice.
    page.find("button[name=resetPassword]", page.row(ann["objectId"])).click()
    dialog = page.visible("dialog[open]")
    page.type("input[name=password]", "new-pass-1", within=dialog)
    page.type("input[name=repeat]", "new-pass-2", within=dialog)
    page.press(dialog, "setPassword")
    assert "differ" in page.dialog_error()
    page.type("input[name=repeat]", "new-pass-1", within=dialog)
    page.press(dialog, "setPassword")
    page.gone("dialog[open]")
    assert "password" in page.notice()
    assert log_in(server, prefix + ".ann", "new-pass-1").status_code == 200
    refused = log_in(server, prefix + ".ann", "old-pass")
    assert refused.status_code != 200 and refused.json()["code"] == 210, refused.text

    # The e-mail marked verified.
    page.find("button[name=verifyEmail]", page.row(ann["objectId"])).click()
    page.until(lambda: rest_ok(server, "GET", "/users/" + ann["objectId"]).get("emailVerified") is True, "emailVerified not set")
    page.until(lambda: page.find('td[data-field="emailVerified"]', page.row(ann["objectId"])).text == "true", "not shown verified")
    assert not page.all("button[name=verifyEmail]", page.row(ann["objectId"]))
    page.find("button[name=verifyPhone]", page.row(ann["objectId"])).click()
    page.until(lambda: rest_ok(server, "GET", "/users/" + ann["objectId"]).get("mobilePhoneVerified") is True, "phone not verified")

    # "Open" leads to the user in the data browser.
    page.find("a.open", page.row(ann["objectId"])).click()
    page.ready()
    assert page.row_ids() == [ann["objectId"]]

    page.screen("users", ".users[data-state=ready]")
    page.screenshot("users")


def test_a_role_made_in_the_console_gets_a_user_and_a_role_that_rest_sees_in_its_relations(console, server):  # noqa: F811
    page = console
    member = sign_up(server, username="member" + uuid.uuid4().hex[:6], password="p")
    child_name = "Child" + uuid.uuid4().hex[:6]
    child = rest_ok(server, "POST", "/roles", json={"name": child_name, "ACL": {"*": {"read": True}}})
    name = "Editors" + uuid.uuid4().hex[:6]

    page.screen("roles", ".roles[data-state=ready]")
    page.click("button[name=newRole]")
    dialog = page.visible("dialog[open]")
    page.type("input[name=roleName]", name, within=dialog)
    page.press(dialog, "create")
    page.gone("dialog[open]")
    page.visible(".role-detail")
    role = rest_ok(server, "GET", "/roles", params={"where": json.dumps({"name": name}), "returnACL": "true"})["results"]
    assert len(role) == 1 and role[0]["ACL"] == {"*": {"read": True}}, role
    role_id = role[0]["objectId"]
    assert ("#/roles/" + role_id) in page.driver.current_url

    page.type("input[name=addUser]", member["username"])
    page.click("button[name=addUserToRole]")
    page.until(lambda: page.rows(".relation.users") == [member["objectId"]], "the user is not listed in the role")
    page.type("input[name=addRole]", child_name)
    page.click("button[name=addRoleToRole]")
    page.until(lambda: page.rows(".relation.roles") == [child["objectId"]], "the role is not listed in the role")

    stored = rest_ok(server, "GET", "/roles/" + role_id)
    assert stored["name"] == name and stored["users"] == {"__type": "Relation", "className": "_User"}, stored
    related = lambda key, path: [o["objectId"] for o in rest_ok(server, "GET", path, params={"where": json.dumps(
        {"$relatedTo": {"object": {"__type": "Pointer", "className": "_Role", "objectId": role_id}, "key": key}})})["results"]]
    assert related("users", "/users") == [member["objectId"]]
    assert related("roles", "/roles") == [child["objectId"]]
    page.screenshot("roles")
    page.type("input[name=addUser]", "nobody-" + uuid.uuid4().hex[:6])
    page.click("button[name=addUserToRole]")
    assert "No user" in page.visible(".role-detail > .error").text

    # Removing the user again.
    page.find("button[name=removeMember]", page.row(member["objectId"], ".relation.users")).click()
    page.press(page.visible("dialog[open]"), "confirm")
    page.until(lambda: page.rows(".relation.users") == [], "the user is still listed")
    assert related("users", "/users") == []


def test_an_uploaded_file_is_listed_with_its_size_and_preview_and_deleted_from_the_files_screen(console, server, tmp_path):  # noqa: F811
    page = console
    picture = tmp_path / ("pixel-%s.png" % uuid.uuid4().hex[:6])
    picture.write_bytes(PIXEL_PNG)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"x" * 3000)
    rest_ok(server, "POST", "/files", json={"name": "elsewhere.png", "url": "https://example.com/a.png", "mime_type": "image/png"})

    page.screen("files", ".files[data-state=ready]")
    page.find("input[name=file]").send_keys(str(notes))
    page.click("button[name=uploadFile]")
    page.until(lambda: "Uploaded notes.txt" in page.notice(), "no upload notice")
    page.find("input[name=file]").send_keys(str(picture))
    page.click("button[name=uploadFile]")
    page.until(lambda: ("Uploaded %s." % picture.name) in page.notice(), "no upload notice")

    stored = rest_ok(server, "GET", "/classes/_File", params={"where": json.dumps({"name": picture.name})})["results"]
    assert len(stored) == 1 and stored[0]["metaData"]["size"] == len(PIXEL_PNG), stored
    file_id = stored[0]["objectId"]
    row = page.row(file_id)
    size = page.find('td[data-field="size"] .value', row)
    assert size.get_attribute("data-bytes") == str(len(PIXEL_PNG)) and size.text == "%d B" % len(PIXEL_PNG)
    assert page.find('td[data-field="mime_type"]', row).text == "image/png"
    image = page.find("img.thumb", row)
    page.until(lambda: page.driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 2,
               "the preview did not load")
    assert page.rows(".files")[0] == file_id  # newest first
    notes_row = page.all("table.data tbody tr")[1]
    assert page.find('td[data-field="size"]', notes_row).text == "2.9 KiB"
    assert not page.all("img.thumb", notes_row)
    # Images elsewhere are not loaded (the page's CSP allows only its own origin).
    assert not [img for img in page.all("img.thumb") if "example.com" in (img.get_attribute("src") or "")]
    page.screenshot("files")

    page.find("button[name=deleteFile]", row).click()
    page.press(page.visible("dialog[open]"), "confirm")
    page.until(lambda: file_id not in page.rows(".files"), "the file is still listed")
    assert "deleted" in page.notice()
    assert rest_ok(server, "GET", "/classes/_File", params={"where": json.dumps({"objectId": file_id})})["results"] == []
    assert requests.get(stored[0]["url"], timeout=10).status_code == 404


def test_cql_shows_exactly_the_matching_rows_and_syntax_errors_and_the_rest_console_shows_replies(console, server):  # noqa: F811
    page = console
    class_name = new_class("Cql")
    ids = create_objects(server, class_name, [{"n": n, "label": "row %d" % n} for n in range(6)])
    page.screen("cql", ".cql[data-state=ready]")

    page.type("textarea[name=cql]", "select * from %s where n > 2" % class_name)
    page.click("button[name=runCql]")
    page.until(lambda: page.find(".cql .summary").text.startswith("3 rows"), "no result")
    assert set(page.rows(".cql")) == set(ids[3:])
    values = page.driver.execute_script(
        "return [...document.querySelectorAll('.cql td[data-field=n]')].map(td => td.textContent)")
    assert sorted(values) == ["3", "4", "5"]
    headers = page.driver.execute_script("return [...document.querySelectorAll('.cql th')].map(th => th.dataset.field)")
    assert headers[0] == "objectId" and {"n", "label", "createdAt"} <= set(headers), headers

    page.type("textarea[name=cql]", "selec * from " + class_name)
    page.click("button[name=runCql]")
    expected = rest(server, "GET", "/cloudQuery", params={"cql": "selec * from " + class_name}).json()["error"]
    page.until(lambda: page.visible(".cql .error").text.strip() == expected.strip(), "the server's message is not shown")
    assert page.find(".cql .table-wrap").is_displayed() is False

    page.type("textarea[name=cql]", "select count(*) from %s where n < 2" % class_name)
    page.click("button[name=runCql]")
    page.until(lambda: page.find(".cql .summary").text.startswith("count: 2"), "no count")

    page.type("textarea[name=cql]", "select * from %s where n > 2" % class_name)
    page.click("button[name=runCql]")
    page.until(lambda: len(page.rows(".cql")) == 3, "no result")

    # The REST console: a GET, and a PUT whose change REST sees.
    page.type("input[name=restPath]", "/classes/%s/%s" % (class_name, ids[4]))
    page.click("button[name=sendRest]")
    page.until(lambda: page.find(".rest-status").is_displayed(), "no reply")
    assert page.find(".rest-status").text == "GET /1.1/classes/%s/%s → 200" % (class_name, ids[4])
    shown = json.loads(page.find(".rest-reply").text)
    assert shown == rest_ok(server, "GET", "/classes/%s/%s" % (class_name, ids[4]))
    page.screenshot("cql")

    page.find("select[name=method]").send_keys("PUT")
    page.type("textarea[name=restBody]", '{"n": 40, "big": 9007199254740993, "ratio": 1.0}')
    page.click("button[name=sendRest]")
    page.until(lambda: page.find(".rest-status").text.startswith("PUT") and page.find(".rest-status").text.endswith("200"), "no reply")
    reply = rest(server, "GET", "/classes/%s/%s" % (class_name, ids[4]))
    assert reply.json()["n"] == 40 and reply.json()["big"] == 9007199254740993 and type(reply.json()["ratio"]) is float, reply.text

    page.find("select[name=method]").send_keys("GET")
    page.type("input[name=restPath]", "/classes/%s?where={bad" % class_name)
    page.click("button[name=sendRest]")
    page.until(lambda: page.find(".rest-status").text.endswith("400"), "no error status")
    assert json.loads(page.find(".rest-reply").text)["code"] == 107
    page.type("input[name=restPath]", "/../session")
    page.click("button[name=sendRest]")
    assert "below /1.1" in page.visible(".rest .error").text


def test_the_request_log_shows_a_bad_where_with_its_status_and_code_among_the_errors(console, server):  # noqa: F811
    page = console
    class_name = new_class("Log")
    rest_ok(server, "POST", "/classes/" + class_name, json={"n": 1})
    bad = rest(server, "GET", "/classes/" + class_name, params={"where": "{bad"})
    assert bad.status_code == 400 and bad.json()["code"] == 107, bad.text

    page.screen("requests", ".requests[data-state=ready]")
    assert not page.find("input[name=autoRefresh]").is_selected()
    page.find("select[name=status]").send_keys("errors")
    page.type(".requests input[name=path]", class_name)
    page.click(".requests button[name=refresh]")

    def shown():
        return page.driver.execute_script(
            "return [...document.querySelectorAll('table.log tbody tr[data-status]')].map(r => [r.dataset.status, r.dataset.code,"
            " r.querySelector('[data-field=path]').textContent, r.querySelector('[data-field=method]').textContent, r.className])")

    page.until(lambda: len(shown()) == 1, "the bad request is not listed alone")
    status, code, path, method, classes = shown()[0]
    assert (status, code, method) == ("400", "107", "GET") and path.startswith("/1.1/classes/" + class_name + "?where="), shown()
    assert "status-4xx" in classes

    # With the automatic refresh on, a new request appears by itself.
    page.find("input[name=autoRefresh]").click()
    rest(server, "GET", "/classes/" + class_name, params={"where": "[1]"})
    page.until(lambda: len(shown()) == 2, "the automatic refresh did not show the new request")
    page.find("select[name=status]").send_keys("any status")
    page.until(lambda: len(shown()) == 3, "the successful request is not listed")
    page.find("input[name=slow]").click()
    page.until(lambda: len(shown()) == 0, "fast requests are listed as slow")
    page.find("input[name=slow]").click()
    page.until(lambda: len(shown()) == 3, "the list did not come back")
    page.find("input[name=autoRefresh]").click()
    page.screenshot("requests")


def test_settings_show_the_app_id_and_the_masked_master_key_and_never_the_key(console, server):  # noqa: F811
    page = console
    page.screen("settings", ".settings[data-state=ready] .group")
    assert page.find('dd[data-key="keys.appId"]').text == APP_ID
    assert page.find('dd[data-key="keys.masterKey"]').text == MASTER_KEY[:4] + "…"
    assert page.find('dd[data-key="store.kind"]').text in ("sqlite", "postgres")
    assert page.find('dd[data-key="version"]').text
    groups = [e.text for e in page.all(".settings .group h3")]
    assert groups[:3] == ["Server", "Keys", "Store"] or "Keys" in groups, groups
    for text in (page.driver.page_source, page.find("body").text):
        assert MASTER_KEY not in text
    page.screenshot("settings")


def imports_exist(server):  # noqa: F811
    """Whether this server has the console's imports (GET /dashboard/imports answers something other than 404)."""
    return requests.get(server.url + "/dashboard/imports", timeout=10).status_code != 404


def test_a_leancloud_class_file_imported_in_the_console_shows_its_progress_to_the_end_and_its_objects_exist(console, server, tmp_path):  # noqa: F811
    if not imports_exist(server):
        pytest.skip("server side of imports not yet built")
    page = console
    class_name = new_class("Imported")
    rows = [{"objectId": "5d1c81e76e9ba1007f89f%03x" % n, "title": "carried %d" % n, "n": n,
             "createdAt": "2019-07-03T10:22:%02d.322Z" % n, "updatedAt": "2019-07-04T10:22:31.322Z",
             "ACL": {"*": {"read": True}}} for n in range(25)]
    export = tmp_path / (class_name + ".jsonl")
    export.write_text("".join(json.dumps(row) + "\n" for row in rows))

    page.screen("import", ".imports .recent-imports")
    page.find("input[name=importFile]").send_keys(str(export))
    page.find("select[name=source]").send_keys("LeanCloud")
    page.click("button[name=startImport]")
    page.until(lambda: page.find(".import").get_attribute("data-state") in ("succeeded", "failed"), "the import did not end")
    assert page.find(".import").get_attribute("data-state") == "succeeded", page.find(".import-progress").text
    bar = page.find(".import-progress progress")
    assert bar.get_attribute("value") == bar.get_attribute("max"), (bar.get_attribute("value"), bar.get_attribute("max"))
    assert page.find(".import-progress .summary-list")
    page.until(lambda: page.all('.recent-imports tr[data-status="succeeded"]'), "the import is not in the recent list")
    page.screenshot("import")

    stored = rest_ok(server, "GET", "/classes/" + class_name, params={"order": "n", "limit": 100})["results"]
    assert [o["objectId"] for o in stored] == [row["objectId"] for row in rows]
    assert stored[3]["title"] == "carried 3" and stored[3]["createdAt"] == "2019-07-03T10:22:03.322Z"

    # A file of another kind is refused before it is sent.
    wrong = tmp_path / "notes.txt"
    wrong.write_text("x")
    page.find("input[name=importFile]").send_keys(str(wrong))
    page.click("button[name=startImport]")
    assert ".tar.gz" in page.visible(".import .error").text


def test_an_export_started_in_the_console_offers_its_archive_for_download(console, server):  # noqa: F811
    page = console
    class_name = new_class("Exported")
    create_objects(server, class_name, [{"n": n} for n in range(3)])
    page.screen("import", ".imports .export")
    page.type("input[name=exportClasses]", class_name)
    page.click("button[name=startExport]")
    page.until(lambda: page.find(".export").get_attribute("data-state") in ("done", "failed"), "the export did not end")
    link = page.find(".export a.download")
    archive = requests.get(link.get_attribute("href"), timeout=30)
    assert archive.status_code == 200
    with tarfile.open(fileobj=io.BytesIO(archive.content), mode="r:gz") as tar:
        names = tar.getnames()
        member = next(name for name in names if name.endswith(class_name + ".jsonl"))
        lines = tar.extractfile(member).read().decode().splitlines()
    assert sorted(json.loads(line)["n"] for line in lines) == [0, 1, 2], names


def test_a_viewer_sees_none_of_the_write_controls_of_the_administration_screens(console, server, viewer, tmp_path):  # noqa: F811
    page = console
    sign_up(server, username="seen" + uuid.uuid4().hex[:6], password="p", email="seen@example.net")
    rest_ok(server, "POST", "/roles", json={"name": "Seen" + uuid.uuid4().hex[:6], "ACL": {"*": {"read": True}}})
    role_id = rest_ok(server, "GET", "/roles", params={"where": json.dumps({"name": "DashboardViewer"})})["results"][0]["objectId"]
    token = rest_ok(server, "POST", "/fileTokens", json={"name": "seen.png", "mime_type": "image/png", "metaData": {"size": len(PIXEL_PNG)}})
    assert requests.put(token["upload_url"], data=PIXEL_PNG, timeout=10).status_code == 200
    rest_ok(server, "POST", "/fileCallback", json={"token": token["token"], "result": True})

    page.click("button[name=signOut]")
    page.visible("form.signin")
    page.sign_in_with_password(*viewer)
    page.until(lambda: page.signed_in_as() == "%s · viewer" % viewer[0], "the viewer is not signed in")
    try:
        page.screen("users", ".users[data-state=ready] table.data tbody tr[data-id]")
        assert page.all(".users a.open"), "reading stays possible"
        for control in ("resetPassword", "verifyEmail", "verifyPhone", "revokeSessions"):
            assert not page.all("button[name=%s]" % control), control + " is offered to a viewer"
        page.find(".users button[name=account]").click()  # the account is shown, without its actions
        dialog = page.visible("dialog[open]")
        page.until(lambda: page.all(".account[data-state=ready]", dialog), "the account did not load")
        for control in ("revokeSessions", "unlock"):
            assert not page.all("button[name=%s]" % control, dialog), control + " is offered to a viewer"
        page.press(dialog, "cancel")
        page.gone("dialog[open]")

        page.screen("roles/" + role_id, ".relation.users[data-state=ready] tr[data-id]")
        for control in ("button[name=newRole]", "input[name=addUser]", "input[name=addRole]", "button[name=removeMember]"):
            assert not page.all(control), control + " is offered to a viewer"

        page.screen("files", ".files[data-state=ready] tr[data-id]")
        assert page.all(".files img.thumb")
        for control in ("input[name=file]", "button[name=uploadFile]", "button[name=deleteFile]"):
            assert not page.all(control), control + " is offered to a viewer"

        page.screen("cql", ".cql[data-state=ready]")
        methods = [o.get_attribute("value") for o in page.all("select[name=method] option")]
        assert methods == ["GET"], methods
        page.type("textarea[name=cql]", "delete from _File")
        page.click("button[name=runCql]")
        assert "select" in page.visible(".cql .error").text

        page.screen("import", ".imports .recent-imports")
        for control in ("input[name=importFile]", "button[name=startImport]", "button[name=startExport]"):
            assert not page.all(control), control + " is offered to a viewer"

        page.screen("requests", ".requests[data-state=ready]")
        page.screen("settings", ".settings[data-state=ready] .group")
        assert MASTER_KEY not in page.driver.page_source
    finally:
        page.click("button[name=signOut]")
        page.visible("form.signin")


def schema_of(server, class_name):  # noqa: F811
    return rest_ok(server, "GET", "/schemas/" + class_name, params={"full": "1"})


def test_required_and_a_default_set_in_the_schema_screen_refuse_a_create_without_the_field_and_fill_it_in(console, server):  # noqa: F811
    page = console
    class_name = new_class("Flags")
    rest_ok(server, "POST", "/classes/" + class_name, json={"title": "first", "pages": 1})
    page.screen("schema/" + class_name, '.columns-table tr[data-field="pages"]')

    page.find('.columns-table tr[data-field="title"] input[name=required]').click()
    page.until(lambda: schema_of(server, class_name)["fields"]["title"].get("required") is True, "required was not set")
    refused = rest(server, "POST", "/classes/" + class_name, json={"pages": 2})
    assert refused.status_code == 400 and refused.json()["code"] == 113, refused.text

    # A default typed with the column's editor: a wrong value is refused in the dialog, a number is set.
    page.visible('.columns-table tr[data-field="pages"] button[name=editDefault]').click()
    dialog = page.visible("dialog[open]")
    page.type("input[name=value]", "many", within=dialog)
    page.press(dialog, "saveDefault")
    assert "not a number" in page.dialog_error()
    page.type("input[name=value]", "12", within=dialog)
    page.press(dialog, "saveDefault")
    page.gone("dialog[open]")
    page.until(lambda: page.find('.columns-table tr[data-field="pages"] .default-value').text == "12", "the default is not shown")
    created = rest_ok(server, "POST", "/classes/" + class_name, json={"title": "second"})
    assert rest_ok(server, "GET", "/classes/%s/%s" % (class_name, created["objectId"]))["pages"] == 12

    # Another flag keeps the ones set before (the schema API replaces a field's flags together).
    page.find('.columns-table tr[data-field="pages"] input[name=read_only]').click()
    page.until(lambda: schema_of(server, class_name)["fields"]["pages"].get("read_only") is True, "read-only was not set")
    pages = schema_of(server, class_name)["fields"]["pages"]
    assert pages.get("defaultValue") == 12 and not pages.get("required"), pages
    page.find('.columns-table tr[data-field="title"] input[name=hidden]').click()
    page.until(lambda: schema_of(server, class_name)["fields"]["title"].get("hidden") is True, "hidden was not set")
    assert schema_of(server, class_name)["fields"]["title"].get("required") is True

    # A new column with its flags and default, from the add-column form.
    page.type("input[name=columnName]", "rank")
    page.find("select[name=columnType]").send_keys("Number")
    page.find("form.add-column input[name=required]").click()
    page.find("form.add-column input[name=withDefault]").click()
    page.type("form.add-column .new-default input[name=value]", "5")
    page.click("button[name=addColumn]")
    page.visible('.columns-table tr[data-field="rank"]')
    rank = schema_of(server, class_name)["fields"]["rank"]
    assert rank.get("required") is True and rank.get("defaultValue") == 5, rank
    page.screenshot("schema-flags")

    # Cleared, the default no longer fills the field in.
    page.find('.columns-table tr[data-field="pages"] button[name=editDefault]').click()
    page.press(page.visible("dialog[open]"), "clearDefault")
    page.gone("dialog[open]")
    page.until(lambda: "defaultValue" not in schema_of(server, class_name)["fields"]["pages"], "the default was not cleared")
    assert schema_of(server, class_name)["fields"]["pages"].get("read_only") is True
    created = rest_ok(server, "POST", "/classes/" + class_name, json={"title": "third"})
    assert "pages" not in rest_ok(server, "GET", "/classes/%s/%s" % (class_name, created["objectId"]))


def test_an_index_added_in_the_schema_screen_shows_in_the_plan_of_a_condition_on_its_field_and_a_full_scan_is_highlighted(console, server):  # noqa: F811
    page = console
    class_name = new_class("Indexed")
    create_objects(server, class_name, [{"title": "t%d" % i, "pages": i} for i in range(30)])
    page.screen("schema/" + class_name, ".indexes-table")

    page.type("input[name=indexField]", "title")
    page.click("button[name=addIndex]")
    page.visible('.indexes-table tr[data-index="title_1"]')
    assert schema_of(server, class_name)["indexes"]["title_1"] == {"title": 1}

    def explain(where, order=""):
        page.type("textarea[name=explainWhere]", where)
        page.type("input[name=explainOrder]", order)
        before = page.all("ol.plan li")
        page.click("button[name=explain]")
        page.until(lambda: page.all("ol.plan li") and all(page._replaced(line) for line in before), "no plan shown")
        return [(line.text, "full-scan" in (line.get_attribute("class") or "")) for line in page.all("ol.plan li")]

    indexed = explain('{"title": "t3"}')
    assert any("index" in text.lower() and "title" in text.lower() for text, _ in indexed), indexed
    assert not any(full for _, full in indexed), indexed
    unindexed = explain('{"pages": 3}')
    assert any(full for _, full in unindexed), unindexed
    # In createdAt's order SQLite walks that index and tests each object: marked as such, not as a full scan.
    walked = explain('{"pages": 3}', "-createdAt")
    assert not any(full for _, full in walked), walked
    assert any("index-walk" in (line.get_attribute("class") or "") for line in page.all("ol.plan li")), walked
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", page.find("ol.plan"))
    page.screenshot("schema-indexes")

    page.type("textarea[name=explainWhere]", "{pages")
    page.click("button[name=explain]")
    assert "not JSON" in page.visible("form.explain .error").text

    page.find('.indexes-table tr[data-index="title_1"] button[name=dropIndex]').click()
    page.press(page.visible("dialog[open]"), "confirm")
    page.gone('.indexes-table tr[data-index="title_1"]')
    assert "title_1" not in schema_of(server, class_name)["indexes"]


def parse_log_in(server, username, password):  # noqa: F811
    return requests.post(server.url + "/parse/login", timeout=10, json={"username": username, "password": password},
                         headers={"X-Parse-Application-Id": APP_ID, "X-Parse-REST-API-Key": APP_KEY, "Content-Type": "application/json"})


def test_the_account_view_shows_a_lock_out_after_seven_wrong_log_ins_unlocks_it_and_revokes_every_session(console, server):  # noqa: F811
    page = console
    name = "acct" + uuid.uuid4().hex[:8]
    user = sign_up(server, username=name, password="right-pass")
    for _ in range(7):
        assert log_in(server, name, "wrong-pass").status_code != 200
    assert log_in(server, name, "right-pass").status_code != 200, "seven wrong passwords did not lock the account"

    page.screen("users", ".users[data-state=ready]")
    page.type(".users input[name=search]", name)
    page.click("button[name=searchUsers]")
    page.until(lambda: page.rows(".users") == [user["objectId"]], "the search did not find the user")
    page.find("button[name=account]", page.row(user["objectId"])).click()
    dialog = page.visible("dialog[open]")
    page.until(lambda: page.all(".account[data-state=ready] dl", dialog), "the account did not load")
    assert page.find('dd[data-field="locked"]', dialog).text.startswith("yes, until "), page.find(".account", dialog).text
    assert int(page.find('dd[data-field="recentFailures"]', dialog).text) >= 7
    page.screenshot("account")

    page.press(dialog, "unlock")
    page.until(lambda: page.find('dd[data-field="locked"]', dialog).text == "no", "not shown unlocked")
    assert page.find('dd[data-field="recentFailures"]', dialog).text == "0"
    assert log_in(server, name, "right-pass").status_code == 200, "unlocked, the right password still fails"

    # Revoking every session: a LeanCloud session token and a Parse session both stop working.
    token = log_in(server, name, "right-pass").json()["sessionToken"]
    parse = parse_log_in(server, name, "right-pass")
    assert parse.status_code == 200, parse.text
    parse_me = lambda: requests.get(server.url + "/parse/users/me", timeout=10, headers={  # noqa: E731
        "X-Parse-Application-Id": APP_ID, "X-Parse-REST-API-Key": APP_KEY, "X-Parse-Session-Token": parse.json()["sessionToken"]})
    lc_me = lambda: rest(server, "GET", "/users/me", headers={**APP, "X-LC-Session": token})  # noqa: E731
    assert lc_me().status_code == 200 and parse_me().status_code == 200
    page.press(dialog, "cancel")
    page.gone("dialog[open]")
    page.find("button[name=account]", page.row(user["objectId"])).click()
    dialog = page.visible("dialog[open]")
    page.until(lambda: int(page.find('dd[data-field="sessionCount"]', dialog).text) >= 1, "the sessions are not shown")
    assert page.all("table.sessions tbody tr", dialog)
    page.press(dialog, "revokeSessions")
    page.until(lambda: "revoked" in page.find(".notice", dialog).text, "no notice of the revocation")
    assert lc_me().status_code != 200, "the LeanCloud session token still works"
    assert parse_me().status_code != 200, "the Parse session still works"
    page.until(lambda: page.find('dd[data-field="sessionCount"]', dialog).text == "0", "sessions are still listed")
    page.press(dialog, "cancel")
