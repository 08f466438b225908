"""moto_server with its requests handled one at a time.

moto checks a conditional write (`If-None-Match: *`) and then stores the object in two steps, so two concurrent
writes of one key can both pass the check, where S3 lets exactly one land. Serialising the requests gives moto the
atomicity S3 has, so that the file storage conformance check tests Cirrus's side of it (the condition it sends and
the 412 it reads) rather than moto's race. The server stays threaded: keep-alive connections still work.

Usage: python moto_serialized.py [moto_server arguments]
"""
import sys
import threading

import moto.server as server

_lock = threading.Lock()
_Application = server.DomainDispatcherApplication


class SerializedApplication(_Application):
    def __call__(self, environ, start_response):
        with _lock:
            return super().__call__(environ, start_response)


server.DomainDispatcherApplication = SerializedApplication
sys.exit(server.main(sys.argv[1:]))
