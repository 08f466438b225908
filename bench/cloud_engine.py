"""The LeanEngine app of bench/cloud_code.sh: the `leancloud` package's Engine with a beforeSave hook that changes
nothing on BenchBefore and an afterSave hook that does nothing on BenchAfter, served by a threading wsgiref server
on ENGINE_PORT. It counts the after-hook calls it received and answers the count on GET /count."""

import os
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import leancloud

leancloud.init(os.environ["LEANCLOUD_APP_ID"], app_key=os.environ["LEANCLOUD_APP_KEY"],
               master_key=os.environ["LEANCLOUD_APP_MASTER_KEY"], hook_key=os.environ["LEANCLOUD_APP_HOOK_KEY"])
engine = leancloud.Engine()
after_calls = [0]
lock = threading.Lock()


@engine.before_save("BenchBefore")
def before_save(obj):
    pass


@engine.after_save("BenchAfter")
def after_save(obj):
    with lock:
        after_calls[0] += 1


def app(environ, start_response):
    if environ["PATH_INFO"] == "/count":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [str(after_calls[0]).encode()]
    return engine(environ, start_response)


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    request_queue_size = 256


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


if __name__ == "__main__":
    make_server("127.0.0.1", int(os.environ["ENGINE_PORT"]), app, server_class=Server, handler_class=Quiet).serve_forever()
