"""Files with the LeanCloud Python SDK (fileTokens, the signed PUT of provider "s3", fileCallback), bmobpy's upload and
delete, and ParsePy's File."""

import io
import uuid

import requests
from bmobpy.bmob import Bmob

from conftest import APP_ID, APP_KEY, MASTER_KEY


def test_sdk_file_saves_downloads_fetches_attaches_and_is_found(leancloud, class_name):
    content = ("hello from %s" % uuid.uuid4()).encode()
    saved = leancloud.File("hello.txt", io.BytesIO(content))
    saved.save()
    assert saved.id
    assert saved.url.startswith("http://127.0.0.1:")
    assert saved.mime_type == "text/plain"
    assert requests.get(saved.url, timeout=10).content == content

    fetched = leancloud.File.create_without_data(saved.id)
    fetched.fetch()
    assert fetched.url == saved.url
    assert fetched.name == "hello.txt"
    assert fetched.size == len(content)

    holder = leancloud.Object.extend(class_name)()
    holder.set("attachment", saved)
    holder.save()
    again = leancloud.Query(class_name).get(holder.id)
    assert again.get("attachment").id == saved.id

    found = leancloud.Query("_File").equal_to("objectId", saved.id).find()
    assert [row.url for row in found] == [saved.url]


def test_sdk_file_destroy_needs_the_master_key_and_removes_the_content(leancloud):
    saved = leancloud.File("doomed.bin", io.BytesIO(b"\x00\x01\x02"))
    saved.save()
    assert requests.get(saved.url, timeout=10).status_code == 200
    try:
        saved.destroy()
    except leancloud.LeanCloudError as error:
        assert error.code == 403
    else:
        raise AssertionError("a client destroyed a file although _File delete is closed")
    leancloud.use_master_key(True)
    saved.destroy()
    leancloud.use_master_key(False)
    assert requests.get(saved.url, timeout=10).status_code == 404


def test_sdk_external_file_keeps_its_url(leancloud):
    external = leancloud.File.create_with_url("logo.png", "https://example.com/logo.png")
    external.save()
    fetched = leancloud.File.create_without_data(external.id)
    fetched.fetch()
    assert fetched.url == "https://example.com/logo.png"
    assert fetched.metadata.get("__source") == "external"


def test_bmobpy_upload_serves_the_content(cirrus, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"bmob file body")
    client = Bmob(APP_ID, APP_KEY)
    client.resetDomain(cirrus.url)
    uploaded = client.upload(str(path))
    assert uploaded, client.getError()
    assert uploaded.url.startswith(cirrus.url + "/files/")
    assert requests.get(uploaded.url, timeout=10).content == b"bmob file body"


def test_parsepy_file_saves_attaches_and_reads_back_for_both_sdks(parse, leancloud, class_name):
    _, datatypes, _ = parse
    body = "parse file %s" % uuid.uuid4()
    uploaded = datatypes.File("notes.txt", body, "text/plain")
    uploaded.save()
    assert uploaded.url.endswith("/files/" + uploaded.name)
    assert requests.get(uploaded.url, timeout=10).text == body

    Holder = type(class_name, (datatypes.Object,), {})
    holder = Holder(attachment=uploaded)
    holder.save()
    again = Holder.Query.get(objectId=holder.objectId)
    assert again.attachment.url == uploaded.url
    assert again.attachment.name == uploaded.name

    # Cirrus linked the Parse value to the file's row: the LeanCloud SDK reads a full file.
    seen = leancloud.Query(class_name).get(holder.objectId).get("attachment")
    assert seen.id and seen.url == uploaded.url
    assert seen.name == "notes.txt"
    assert seen.key == uploaded.name
    assert seen.size == len(body)


def test_bmobpy_uploads_several_files_and_cdn_batch_delete_removes_them(cirrus, raw, tmp_path):
    """Bmob's SDK uploads a batch (filesUploadBatchWithPaths) one /2/files request per file; cdnBatchDelete takes
    the URLs without their domain and answers the ones it could not delete."""
    client = Bmob(APP_ID, APP_KEY)
    client.resetDomain(cirrus.url)
    urls = []
    for index in range(3):
        path = tmp_path / ("batch%d.txt" % index)
        path.write_bytes(b"part %d" % index)
        uploaded = client.upload(str(path))
        assert uploaded, client.getError()
        urls.append(uploaded.url)
    assert [requests.get(url, timeout=10).text for url in urls] == ["part 0", "part 1", "part 2"]

    paths = [url[len(cirrus.url) + 1:] for url in urls]
    master = {"X-Bmob-Application-Id": APP_ID, "X-Bmob-REST-API-Key": APP_KEY, "X-Bmob-Master-Key": MASTER_KEY}
    gone = "files/" + "A" * 40 + ".txt"
    reply = raw.request("POST", "/2/cdnBatchDelete", headers=master, json={"upyun": paths + [gone]})
    assert reply.status_code == 400
    assert reply.json()["code"] == 154
    assert reply.json()["fail"] == {"upyun": [gone]}
    assert [requests.get(url, timeout=10).status_code for url in urls] == [404, 404, 404]
