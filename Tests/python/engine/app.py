"""A LeanEngine app, as a LeanCloud customer writes one, for the cloud-code tests: the `leancloud` package's own
`leancloud.Engine` WSGI app, served on ENGINE_PORT by a threading wsgiref server, its SDK pointed at Cirrus through
LEANCLOUD_API_SERVER and its keys from the LEANCLOUD_APP_* variables, as LeanEngine sets them.

Every hook call it receives is appended to ENGINE_CALLS (one JSON line: the hook and the object's id), so the tests
can tell which hooks ran and how often.
"""

import json
import os
import sys
import threading
import time
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import leancloud
from leancloud import LeanEngineError

leancloud.init(
    os.environ["LEANCLOUD_APP_ID"],
    app_key=os.environ["LEANCLOUD_APP_KEY"],
    master_key=os.environ["LEANCLOUD_APP_MASTER_KEY"],
    hook_key=os.environ["LEANCLOUD_APP_HOOK_KEY"],
)
leancloud.use_master_key(False)
engine = leancloud.Engine()
calls_lock = threading.Lock()


def record(hook, obj):
    with calls_lock, open(os.environ["ENGINE_CALLS"], "a") as calls:
        calls.write(json.dumps({"hook": hook, "id": obj.id, "fields": {k: v for k, v in obj.dump().items() if isinstance(v, (str, int, bool))}}) + "\n")


@engine.define
def hello(**params):
    return "Hello, %s!" % params.get("name", "world")


@engine.define
def whoami(**params):
    user = engine.current.user
    return user.get("username") if user else None


@engine.define
def fail(**params):
    raise LeanEngineError(code=3721, message="the function says no")


@engine.define
def crash(**params):
    raise RuntimeError("an unexpected failure in the function")


@engine.define
def sleepy(**params):
    time.sleep(float(params.get("seconds", 1)))
    return "awake"


@engine.define
def echo_object(**params):
    """RPC: the object comes in decoded (an Object), and goes back encoded."""
    review = params["review"]
    review.set("echoed", True)
    return review


@engine.define
def save_unchecked(**params):
    """Saves a Review whose title its beforeSave refuses, skipping the before-hooks (`__ignore_hooks` with the hook
    key): what a hook saving its own objects does."""
    review = leancloud.Object.extend("Review")()
    review.set("title", params["title"])
    review.set("stars", 0)
    review.disable_before_hook()
    review.save()
    return review.id


@engine.before_save("Review")
def review_before_save(review):
    record("beforeSave", review)
    if review.get("stars") is not None and review.get("stars") < 1:
        raise LeanEngineError(code=321, message="a review needs at least one star")
    comment = review.get("comment")
    if comment and len(comment) > 10:
        review.set("comment", comment[:10] + "...")
    review.set("checked", True)


@engine.before_update("Review")
def review_before_update(review):
    record("beforeUpdate", review)
    keys = sorted(review.updated_keys or [])
    if "stars" in keys and (review.get("stars") or 0) > 5:
        raise LeanEngineError(code=322, message="no more than five stars; updated keys: " + ",".join(keys))


@engine.before_delete("Review")
def review_before_delete(review):
    record("beforeDelete", review)
    if review.get("locked"):
        raise LeanEngineError(code=323, message="a locked review stays")


@engine.on_login
def on_login(user):
    if user.get("username") == "banned":
        raise LeanEngineError(code=324, message="this user may not log in")


@engine.on_auth_data
def on_auth_data(auth_data):
    weibo = auth_data.get("weibo")
    if weibo and weibo.get("uid") == "refused":
        raise LeanEngineError(code=325, message="this weibo account is refused")
    if weibo:
        weibo["checked_by_engine"] = True
    return auth_data


@engine.after_save("Diary")
def diary_after_save(diary):
    record("afterSave", diary)


@engine.after_update("Diary")
def diary_after_update(diary):
    record("afterUpdate", diary)


@engine.after_delete("Diary")
def diary_after_delete(diary):
    record("afterDelete", diary)


@engine.on_verified("sms")
def on_verified_sms(user):
    record("onVerified/sms", user)


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        sys.stderr.write("engine: " + (format % args) + "\n")


if __name__ == "__main__":
    server = make_server("127.0.0.1", int(os.environ["ENGINE_PORT"]), engine, server_class=ThreadingServer, handler_class=QuietHandler)
    print("engine listening", flush=True)
    server.serve_forever()
