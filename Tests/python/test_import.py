"""`cirrus import --from leancloud` run as a process on a LeanCloud-format export, then `cirrus serve` on the same
store: the LeanCloud Python SDK logs in with the original password (the LeanCloud hash of the export) and reads an
imported object with its original objectId and createdAt. On PostgreSQL too when CIRRUS_PYTEST_POSTGRES_URL is set."""

import datetime
import json
import os
import subprocess

from conftest import CirrusServer, cirrus_binary, postgres_schema

# The hash vector of LeanCloud's export documentation: password "password".
SALT = "h60d8x797d3oa0naxybxxv9bn7xpt2yiowz68mpiwou7gwr2"
HASH = "tA7BLW+NK0UeARng0693gCaVnljkglCB9snqlpCSUKjx2RgYp8VZZOQt0S5iUtlDrkJXfT3gknS4rRqjYsd/Ug=="


def plain_env():
    """The environment without CIRRUS_* settings, as the server fixtures run."""
    return {k: v for k, v in os.environ.items() if not k.startswith("CIRRUS_")}


def write_export(folder):
    folder.mkdir()
    rows = {
        "_User": [
            {
                "objectId": "5cc6abe117b54d7448151efc", "username": "imported_alice", "password": HASH, "salt": SALT,
                "sessionToken": "pyimportedtoken0123456789", "createdAt": "2019-04-29T07:46:41.687Z",
                "updatedAt": "2020-11-04T03:29:17.441Z", "ACL": {"*": {"read": True}},
            }
        ],
        "Todo": [
            {
                "objectId": "5d1c81e76e9ba1007f89f2d2", "title": "carried over", "priority": 2,
                "due": {"__type": "Date", "iso": "2021-05-06T07:08:09.010Z"},
                "owner": {"__type": "Pointer", "className": "_User", "objectId": "5cc6abe117b54d7448151efc"},
                "createdAt": "2019-07-03T10:22:31.322Z", "updatedAt": "2019-07-04T10:22:31.322Z", "ACL": {"*": {"read": True}},
            },
            {"objectId": "5d1c81e76e9ba1007f89f2d3", "title": "secret", "createdAt": "2019-07-03T10:22:31.322Z", "ACL": {}},
        ],
    }
    for name, lines in rows.items():
        (folder / (name + ".jsonl")).write_text("".join(json.dumps(row) + "\n" for row in lines))


def test_import_then_serve_and_log_in_with_the_old_password(tmp_path, leancloud_sdk, monkeypatch):
    export = tmp_path / "export"
    write_export(export)
    data = tmp_path / "data"
    schema = postgres_schema()
    store_args = ["--data-dir", str(data)] + (["--database", schema[1]] if schema else [])
    done = subprocess.run(
        [cirrus_binary(), "import", "--from", "leancloud", str(export), "--quiet", *store_args],
        capture_output=True, text=True, timeout=300, env=plain_env(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Todo" in done.stdout and "_User" in done.stdout

    again = subprocess.run(
        [cirrus_binary(), "import", "--from", "leancloud", str(export), "--quiet", *store_args],
        capture_output=True, text=True, timeout=300, env=plain_env(),
    )
    assert again.returncode == 0, again.stdout + again.stderr
    total = [line for line in again.stdout.splitlines() if line.startswith("total")][0].split()
    assert total[1] == "0" and total[2] == "3", again.stdout

    server = CirrusServer(cirrus_binary(), data, tmp_path / "serve.log", schema=schema)
    try:
        server.wait_until_ready()
        monkeypatch.setenv("LEANCLOUD_API_SERVER", server.url)
        leancloud = leancloud_sdk

        user = leancloud.User()
        user.login("imported_alice", "password")
        assert user.id == "5cc6abe117b54d7448151efc"
        assert user.get_session_token() == "pyimportedtoken0123456789"

        todo = leancloud.Query("Todo").get("5d1c81e76e9ba1007f89f2d2")
        assert todo.get("title") == "carried over"
        assert todo.created_at == datetime.datetime(2019, 7, 3, 10, 22, 31, 322000, tzinfo=todo.created_at.tzinfo)
        if todo.created_at.tzinfo is not None:
            assert todo.created_at.utcoffset() == datetime.timedelta(0)
        assert todo.get("due").year == 2021
        assert todo.get("owner").id == "5cc6abe117b54d7448151efc"

        hidden = leancloud.Query("Todo").equal_to("title", "secret").find()
        assert hidden == []

        bad = leancloud.User()
        try:
            bad.login("imported_alice", "wrong")
            raise AssertionError("a wrong password logged in")
        except leancloud.LeanCloudError as error:
            assert error.code == 210
    finally:
        # The SDK keeps the logged-in user process-wide: no later test may send this server's session elsewhere.
        leancloud_sdk.User.set_current(None)
        code = server.stop()
    assert code == 0, server.output()


def test_parse_export_imports_and_parsepy_logs_in_with_the_bcrypt_password(tmp_path, parse, monkeypatch):
    """A Parse export (`{"results":[…]}` files, a bcrypt `bcryptPassword`) imported with `--from parse`, then served:
    ParsePy logs in with the original password and reads the imported object; a wrong password is refused."""
    connection, datatypes, user_module = parse
    export = tmp_path / "export"
    export.mkdir()
    # OpenBSD's published bcrypt vector: "U*U" at cost 5.
    users = {"results": [{
        "objectId": "pUser00003", "username": "parse_bee", "bcryptPassword": "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "createdAt": "2012-03-08T23:36:14.832Z", "updatedAt": "2012-03-08T23:36:14.832Z",
    }]}
    songs = {"results": [{
        "objectId": "song000001", "name": "plate", "createdAt": "2012-03-08T23:36:14.832Z",
        "updatedAt": "2012-03-09T00:00:00.000Z", "ACL": {"*": {"read": True}},
    }]}
    (export / "_User.json").write_text(json.dumps(users))
    (export / "Song.json").write_text(json.dumps(songs))
    data = tmp_path / "data"
    schema = postgres_schema()
    store_args = ["--data-dir", str(data)] + (["--database", schema[1]] if schema else [])
    done = subprocess.run(
        [cirrus_binary(), "import", "--from", "parse", str(export), "--quiet", *store_args],
        capture_output=True, text=True, timeout=300, env=plain_env(),
    )
    assert done.returncode == 0, done.stdout + done.stderr

    server = CirrusServer(cirrus_binary(), data, tmp_path / "serve.log", schema=schema)
    try:
        server.wait_until_ready()
        root = server.url + "/1"
        for module in (connection, datatypes, user_module):
            monkeypatch.setattr(module, "API_ROOT", root)
        monkeypatch.setattr(connection.ParseBase, "ENDPOINT_ROOT", root)
        monkeypatch.setattr(user_module.User, "ENDPOINT_ROOT", root + "/users")

        bee = user_module.User.login("parse_bee", "U*U")
        assert bee.objectId == "pUser00003"
        assert bee.sessionToken
        try:
            user_module.User.login("parse_bee", "U*V")
            raise AssertionError("a wrong password logged in")
        except AssertionError:
            raise
        except Exception as error:
            assert "101" in str(error) or "404" in str(error), str(error)

        class Song(datatypes.Object):
            pass

        song = Song.Query.get(objectId="song000001")
        assert song.name == "plate"
        assert song.createdAt.year == 2012
    finally:
        code = server.stop()
    assert code == 0, server.output()
