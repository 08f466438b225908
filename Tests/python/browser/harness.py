"""Headless Chromium driving the LeanCloud JavaScript SDK (vendor/av-live-query.js, 4.15.3) against a live Cirrus.

`PageServer` is a small HTTP server on its own loopback port, so the page is another origin than Cirrus and every SDK
request is a cross-origin one, as in a web app: it serves the SDK, the test page `/sdk.html`, pages a test registers
(`add`) and `/signal/<token>`, which records that something called it (what an uploaded page's script would do).

`Browser` is one Chromium for the session. `open_sdk(cirrus_url)` loads the page, which calls
`AV.init({appId, appKey, serverURLs})` (so the SDK never asks LeanCloud's app router), and answers an `SDKPage`
whose `run(body, **args)` runs `body` as an async JavaScript function with `AV` and `args` in scope, through
`execute_async_script`, and returns what it returns (through JSON) or raises `JSError` with the SDK error's `code` and
`message`. The page records every request it makes (`window.__requests`: method and URL), so tests can check what
went over the wire.
"""

import json
import os
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

VENDOR = Path(__file__).resolve().parent / "vendor"
CHROMEDRIVER = os.environ.get("CIRRUS_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROMIUM = os.environ.get("CIRRUS_CHROMIUM", "/usr/bin/chromium")
INSTALL_HINT = (
    "the browser tests need Chromium and its driver: install the Debian packages `chromium chromium-driver` "
    "(apt-get install chromium chromium-driver; .ci/run does) and `pip install -r Tests/python/requirements.txt` "
    "(selenium), or point CIRRUS_CHROMIUM / CIRRUS_CHROMEDRIVER at them"
)

SDK_PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>Cirrus JS SDK</title></head>
<body>
<script>
// Every request the page makes (method, URL), before the SDK can take a reference to XMLHttpRequest or fetch.
window.__requests = [];
(function () {
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    window.__requests.push({method: String(method).toUpperCase(), url: String(url)});
    return open.apply(this, arguments);
  };
  if (window.fetch) {
    var original = window.fetch;
    window.fetch = function (input, init) {
      window.__requests.push({method: String((init && init.method) || 'GET').toUpperCase(),
                              url: String((input && input.url) || input)});
      return original.apply(this, arguments);
    };
  }
})();
</script>
<script src="/vendor/av-live-query.js"></script>
<script>
(function () {
  var params = new URLSearchParams(location.search);
  try {
    AV.init({appId: params.get('appId'), appKey: params.get('appKey'), serverURLs: params.get('server')});
    window.__sdk = {version: AV.version};
  } catch (error) {
    window.__sdk = {error: String((error && error.message) || error)};
  }
})();
</script>
</body></html>
"""

# Wraps a test's async function body: resolves with {ok: <JSON text>} or {error: {...}}.
RUN_SCRIPT = """
var done = arguments[arguments.length - 1];
var args = arguments[0];
var body = new Function('AV', 'args', 'return (async function () {' + arguments[1] + '\\n})();');
Promise.resolve().then(function () { return body(window.AV, args); }).then(function (value) {
  var text;
  try { text = JSON.stringify(value === undefined ? null : value); } catch (e) { text = JSON.stringify(String(value)); }
  done({ok: text});
}, function (error) {
  error = error || {};
  done({error: {code: error.code === undefined ? null : error.code, message: String(error.message || error),
                rawMessage: error.rawMessage === undefined ? null : String(error.rawMessage),
                status: error.status === undefined ? (error.statusCode === undefined ? null : error.statusCode) : error.status,
                name: String(error.name || '')}});
});
"""


class JSError(Exception):
    """An error the page's JavaScript raised (an SDK `AVError` has `code` and `message`)."""

    def __init__(self, info):
        self.info = info
        self.code = info.get("code")
        self.message = info.get("message")
        super().__init__("%s: %s" % (self.code, self.message))


class PageServer:
    """The web app's origin: `/sdk.html`, `/vendor/…`, registered pages and `/signal/<token>`."""

    def __init__(self):
        self.pages = {}
        self.signals = {}
        self._lock = threading.Lock()
        self._signalled = threading.Condition(self._lock)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _reply(self, status, body=b"", content_type="text/plain", extra=()):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Cache-Control", "no-store")
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                path = urllib.parse.urlsplit(self.path).path
                if path.startswith("/signal/"):
                    token = path[len("/signal/"):].split("/")[0]
                    with server._lock:
                        server.signals.setdefault(token, []).append(
                            {"method": self.command, "path": self.path, "origin": self.headers.get("Origin"),
                             "referer": self.headers.get("Referer")}
                        )
                        server._signalled.notify_all()
                    return self._reply(204)
                if path == "/sdk.html":
                    return self._reply(200, SDK_PAGE, "text/html; charset=utf-8")
                if path in ("/vendor/av-live-query.js", "/vendor/LICENSE"):
                    kind = "text/javascript; charset=utf-8" if path.endswith(".js") else "text/plain; charset=utf-8"
                    return self._reply(200, (VENDOR / path.rsplit("/", 1)[1]).read_bytes(), kind)
                page = server.pages.get(path)
                if page is not None:
                    return self._reply(200, page[0], page[1])
                return self._reply(404, b"not found\n")

            do_GET = do_POST = do_PUT = do_HEAD = _handle

            def do_OPTIONS(self):
                self._reply(204, extra=[("Access-Control-Allow-Methods", "GET, POST, PUT, OPTIONS"),
                                        ("Access-Control-Allow-Headers", self.headers.get("Access-Control-Request-Headers") or "*")])

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="browser-page-server", daemon=True)
        self._thread.start()

    def add(self, path, body, content_type):
        """Serves `body` at `path` with `content_type`; returns its URL."""
        self.pages[path] = (body if isinstance(body, bytes) else body.encode(), content_type)
        return self.url + path

    def signal_url(self, token):
        return "%s/signal/%s" % (self.url, token)

    def signalled(self, token):
        with self._lock:
            return list(self.signals.get(token, []))

    def wait_for_signal(self, token, timeout):
        """The calls of `/signal/<token>` once there is one, or [] after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self.signals.get(token):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return []
                self._signalled.wait(remaining)
            return list(self.signals[token])

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class SDKPage:
    """The SDK page, loaded and initialised against one Cirrus server."""

    def __init__(self, browser, server_url, app_id, app_key):
        self.browser = browser
        self.driver = browser.driver
        self.server_url = server_url
        query = urllib.parse.urlencode({"server": server_url, "appId": app_id, "appKey": app_key})
        self.url = "%s/sdk.html?%s" % (browser.pages.url, query)
        self.driver.get(self.url)
        state = self.driver.execute_script("return window.__sdk || null")
        assert state and "version" in state, "the SDK did not load or initialise on %s: %r" % (self.url, state)
        self.version = state["version"]

    def run(self, body, **args):
        """Runs `body` (the body of an async function of `AV` and `args`) in the page; returns its JSON result."""
        reply = self.driver.execute_async_script(RUN_SCRIPT, args, body)
        if "error" in reply:
            raise JSError(reply["error"])
        return json.loads(reply["ok"])

    def error(self, body, **args):
        """Runs `body`, which must fail; returns the JSError."""
        try:
            value = self.run(body, **args)
        except JSError as error:
            return error
        raise AssertionError("expected the script to fail, it returned %r" % (value,))

    def requests(self):
        """Every request the page made so far: [{method, url}]."""
        return self.driver.execute_script("return window.__requests")

    def clear_requests(self):
        self.driver.execute_script("window.__requests.length = 0")


class Browser:
    """One headless Chromium (through chromedriver) and the page server, for a test session."""

    def __init__(self):
        missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
        if missing:
            raise RuntimeError("%s not found" % " and ".join(missing))
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError as error:
            raise RuntimeError("selenium is not installed (%s)" % error) from error
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--no-first-run", "--disable-extensions", "--disable-background-networking"):
            options.add_argument(argument)
        self.pages = PageServer()
        try:
            self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        except Exception:
            self.pages.stop()
            raise
        self.driver.set_script_timeout(30)
        self.driver.set_page_load_timeout(30)
        # Attachments are not saved anywhere: a download only ends the navigation.
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "deny"})

    def open_sdk(self, server_url, app_id, app_key):
        """A fresh SDK page against `server_url`, with no current user and nothing in the page origin's storage."""
        self.driver.get(self.pages.url + "/sdk.html")
        self.driver.execute_script("window.localStorage.clear(); window.sessionStorage.clear();")
        return SDKPage(self, server_url, app_id, app_key)

    def local_storage(self, origin):
        """The localStorage of `origin` (loads `origin` + `/1.1/date`, a JSON reply that runs no script)."""
        self.driver.get(origin + "/1.1/date")
        return self.driver.execute_script(
            "var o = {}; for (var i = 0; i < localStorage.length; i++) { var k = localStorage.key(i); o[k] = localStorage.getItem(k); } return o;"
        )

    def quit(self):
        try:
            self.driver.quit()
        finally:
            self.pages.stop()


def require_browser():
    """A Browser, or a failure (never a skip) that says what to install."""
    import pytest

    try:
        return Browser()
    except Exception as error:
        problem = "%s: %s" % (type(error).__name__, error)
    pytest.fail("cannot start headless Chromium (%s): %s" % (problem, INSTALL_HINT), pytrace=False)


__all__ = ["Browser", "JSError", "PageServer", "SDKPage", "require_browser"]
