"""LiveQuery delivery benchmark client (bench/livequery.sh): N subscribers to one server, then steady writes.

    livequery_clients.py cirrus     URL PID N --app-id ID --app-key KEY [--rate R --duration S --workers K]
    livequery_clients.py pocketbase URL PID N --email E --password P   [--rate R --duration S --workers K]

Cirrus: each subscriber is a client id with one subscription (POST /1.1/LiveQuery/subscribe, class Bench, where
{"room": "r1"}) and one WebSocket (the URL of GET /v1/route, subprotocol lc.json.3) logged in with that client id,
read by a minimal asyncio protocol (--client raw, as the SSE streams are) or the websockets package (--client websockets).
PocketBase: each subscriber is one SSE stream (GET /api/realtime; its first event PB_CONNECT gives the clientId)
subscribed to the topic "bench/*" (POST /api/realtime), the collection's records, whose list rule is public.

The subscribers are spread over K worker processes (asyncio each). When all are connected, subscribed (and, for
Cirrus, logged in) the server's RSS is read from /proc/PID/status (VmRSS); then objects {"room": "r1", "t":
time.time_ns(), "seq": i} are created through REST at R per second for S seconds, one at a time on one keep-alive
connection, each sent at its slot (writes that fall behind are not made up for). Every subscriber records
receive time - t for every event; after the last write the run waits until every event arrived or DRAIN seconds
passed, reads the RSS again, and prints one JSON object: latencies (p50, p90, p99, max, ms), events expected
(writes x N) and received, RSS idle and after (MB), and the seconds the setup took.
"""

import argparse
import array
import asyncio
import base64
import concurrent.futures
import http.client
import json
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse

ROOM = "r1"


# --- A minimal asyncio HTTP/1.1 client (keep-alive; Content-Length or chunked bodies), for subscribes. ---

class HTTPConnection:
    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method, path, headers, body=None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(data)}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        status, response_headers = await read_head(self.reader)
        if "content-length" in response_headers:
            payload = await self.reader.readexactly(int(response_headers["content-length"]))
        elif response_headers.get("transfer-encoding", "").lower() == "chunked":
            payload = b""
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                payload += chunk[:-2]
        else:
            payload = b""
        return status, payload


async def read_head(reader):
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("connection closed before a response")
    status = int(status_line.split()[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return status, headers
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


class Pool:
    def __init__(self, host, port, size):
        self.free = asyncio.Queue()
        for _ in range(size):
            self.free.put_nowait(HTTPConnection(host, port))

    async def request(self, *args):
        connection = await self.free.get()
        try:
            return await connection.request(*args)
        except Exception:
            connection.writer = None
            raise
        finally:
            self.free.put_nowait(connection)


# --- The workers: each holds its share of the subscribers and records their latencies. ---

class Recorder:
    def __init__(self, counters, slot):
        self.latencies = array.array("q")
        self.counters, self.slot = counters, slot
        self.received = 0

    def event(self, sent_ns):
        self.latencies.append(time.time_ns() - sent_ns)
        self.received += 1
        self.counters[self.slot] = self.received


async def cirrus_subscribe(args, index, pool):
    """Subscribes a new client id to the benchmark's room over REST; its id."""
    client_id = f"bench-{os.getpid()}-{index}"
    headers = {"X-LC-Id": args.app_id, "X-LC-Key": args.app_key, "Content-Type": "application/json"}
    body = {"query": {"className": "Bench", "where": {"room": ROOM}}, "id": client_id}
    status, payload = await pool.request("POST", "/1.1/LiveQuery/subscribe", headers, body)
    if status != 200:
        raise RuntimeError(f"subscribe: {status} {payload[:200]!r}")
    return client_id


async def cirrus_subscriber(args, index, pool, socket_url, recorder, ready, errors, slot):
    import websockets
    from websockets.asyncio.client import connect

    client_id = await cirrus_subscribe(args, index, pool)
    ws = await connect(socket_url, subprotocols=["lc.json.3"], compression=None, ping_interval=None,
                       open_timeout=120, close_timeout=1, max_queue=None)
    await ws.send(json.dumps({"cmd": "login", "appId": args.app_id, "installationId": client_id, "service": 1, "i": 1}))
    reply = json.loads(await ws.recv())
    if reply.get("cmd") != "loggedin":
        raise RuntimeError(f"login: {reply}")
    ready()
    try:
        async for frame in ws:
            message = json.loads(frame)
            if message.get("cmd") != "data":
                continue
            for item in message["msg"]:
                if isinstance(item, str):
                    item = json.loads(item)
                if item.get("op") == "create":
                    recorder.event(int(item["object"]["t"]))
    except websockets.ConnectionClosed:
        pass
    if not STOPPING:
        errors[slot] += 1


class WebSocketStream(asyncio.Protocol):
    """One LiveQuery socket read without a WebSocket library (the client cost then matches the SSE reader below):
    the HTTP upgrade, then the server's unmasked frames; text frames are lc.json.3 commands."""

    def __init__(self, recorder, on_open, on_login, on_lost):
        self.recorder, self.on_open, self.on_login, self.on_lost = recorder, on_open, on_login, on_lost
        self.buffer = bytearray()
        self.open = False
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport

    def send_text(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        assert len(payload) < 126
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def data_received(self, data):
        self.buffer += data
        if not self.open:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).decode("latin-1").lower()
            if not head.startswith("http/1.1 101") or "sec-websocket-protocol: lc.json.3" not in head:
                print("upgrade: " + head.splitlines()[0], file=sys.stderr)
                self.transport.close()
                return
            del self.buffer[:end + 4]
            self.open = True
            self.on_open()
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, length = buffer[0] & 0x0F, buffer[1] & 0x7F
            offset = 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, offset = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, offset = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < offset + length:
                return
            payload = bytes(buffer[offset:offset + length])
            del buffer[:offset + length]
            if opcode == 0x8:
                self.transport.close()
                return
            if opcode != 0x1:
                continue  # the server sends whole text frames; pings are not sent to clients
            message = json.loads(payload)
            command = message.get("cmd")
            if command == "data":
                for item in message["msg"]:
                    if isinstance(item, str):
                        item = json.loads(item)
                    if item.get("op") == "create":
                        self.recorder.event(int(item["object"]["t"]))
            elif command == "loggedin":
                self.on_login()

    def connection_lost(self, exc):
        self.on_lost()


async def cirrus_raw_subscriber(args, index, pool, socket_url, recorder, ready, errors, slot):
    client_id = await cirrus_subscribe(args, index, pool)
    loop = asyncio.get_running_loop()
    opened, logged_in, closed = loop.create_future(), loop.create_future(), loop.create_future()

    def on_lost():
        for future in (opened, logged_in, closed):
            if not future.done():
                future.set_exception(ConnectionError("socket closed")) if future is not closed else future.set_result(None)

    url = urllib.parse.urlsplit(socket_url)
    transport, stream = await loop.create_connection(
        lambda: WebSocketStream(recorder, lambda: opened.set_result(None),
                                lambda: logged_in.done() or logged_in.set_result(None), on_lost), url.hostname, url.port)
    key = base64.b64encode(os.urandom(16)).decode()
    transport.write((f"GET {url.path or '/'} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\nUpgrade: websocket\r\n"
                     f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                     f"Sec-WebSocket-Protocol: lc.json.3\r\n\r\n").encode())
    await asyncio.wait_for(opened, 120)
    stream.send_text(json.dumps({"cmd": "login", "appId": args.app_id, "installationId": client_id, "service": 1, "i": 1},
                                separators=(",", ":")))
    await asyncio.wait_for(logged_in, 120)
    ready()
    await closed
    if not STOPPING:
        errors[slot] += 1


class SSEStream(asyncio.Protocol):
    """One PocketBase realtime stream: HTTP/1.1 response head, chunked body, SSE events separated by blank lines."""

    def __init__(self, recorder, on_connect, on_lost):
        self.recorder, self.on_connect, self.on_lost = recorder, on_connect, on_lost
        self.raw = bytearray()
        self.head_done = False
        self.chunked = False
        self.text = bytearray()
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        self.raw += data
        if not self.head_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.raw[:end]).decode("latin-1").lower()
            if not head.startswith("http/1.1 200"):
                print("realtime connect: " + head.splitlines()[0], file=sys.stderr)
                self.transport.close()
                return
            self.chunked = "transfer-encoding: chunked" in head
            del self.raw[:end + 4]
            self.head_done = True
        if self.chunked:
            while True:
                line_end = self.raw.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(bytes(self.raw[:line_end]).split(b";")[0], 16)
                if len(self.raw) < line_end + 2 + size + 2:
                    break
                self.text += self.raw[line_end + 2:line_end + 2 + size]
                del self.raw[:line_end + 2 + size + 2]
        else:
            self.text += self.raw
            self.raw.clear()
        while True:
            end = self.text.find(b"\n\n")
            if end < 0:
                return
            block = bytes(self.text[:end])
            del self.text[:end + 2]
            name, data = None, []
            for line in block.split(b"\n"):
                if line.startswith(b"event:"):
                    name = line[6:].strip()
                elif line.startswith(b"data:"):
                    data.append(line[5:].lstrip(b" "))
            payload = json.loads(b"\n".join(data)) if data else None
            if name == b"PB_CONNECT":
                self.on_connect(payload["clientId"])
            elif payload and payload.get("action") == "create":
                self.recorder.event(int(payload["record"]["t"]))

    def connection_lost(self, exc):
        self.on_lost()


async def pocketbase_subscriber(args, index, pool, host, port, recorder, ready, errors, slot):
    loop = asyncio.get_running_loop()
    connected = loop.create_future()
    closed = loop.create_future()

    def on_lost():
        if not closed.done():
            closed.set_result(None)
        if not connected.done():
            connected.set_exception(ConnectionError("realtime stream closed before PB_CONNECT"))

    transport, _ = await loop.create_connection(
        lambda: SSEStream(recorder, lambda cid: connected.done() or connected.set_result(cid), on_lost), host, port)
    transport.write(f"GET /api/realtime HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    client_id = await asyncio.wait_for(connected, 120)
    status, payload = await pool.request("POST", "/api/realtime", {"Content-Type": "application/json"},
                                         {"clientId": client_id, "subscriptions": [args.topic]})
    if status != 204:
        raise RuntimeError(f"realtime subscribe: {status} {payload[:200]!r}")
    ready()
    await closed
    if not STOPPING:
        errors[slot] += 1


STOPPING = False


def worker(args, slot, count, socket_url, counters, connected, errors, stop, out_path):
    global STOPPING
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    recorder = Recorder(counters, slot)

    async def main():
        global STOPPING
        parsed = urllib.parse.urlsplit(args.url)
        pool = Pool(parsed.hostname, parsed.port, 4)
        gate = asyncio.Semaphore(64)  # connections being set up at once, so the listen backlog never overflows
        done = 0

        def ready():
            nonlocal done
            done += 1
            connected[slot] = done

        async def one(index):
            try:
                async with gate:
                    if args.server == "cirrus":
                        starting = asyncio.get_running_loop().create_future()
                        subscriber = cirrus_subscriber if args.client == "websockets" else cirrus_raw_subscriber
                        task = asyncio.ensure_future(subscriber(
                            args, index, pool, socket_url, recorder, lambda: (ready(), starting.set_result(None)),
                            errors, slot))
                    else:
                        starting = asyncio.get_running_loop().create_future()
                        task = asyncio.ensure_future(pocketbase_subscriber(
                            args, index, pool, parsed.hostname, parsed.port, recorder,
                            lambda: (ready(), starting.set_result(None)), errors, slot))
                    await asyncio.wait([starting, task], return_when=asyncio.FIRST_COMPLETED)
                    if task.done():
                        task.result()
                await task
            except Exception as error:
                errors[slot] += 1
                print(f"subscriber {slot}/{index}: {error!r}", file=sys.stderr)

        tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        STOPPING = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    started = time.process_time()
    try:
        asyncio.run(main())
    finally:
        with open(out_path, "wb") as out:
            recorder.latencies.tofile(out)
        with open(out_path + ".cpu", "w") as out:
            out.write(str(time.process_time() - started))


# --- The orchestrator. ---

def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid):
    """User + system CPU time of the process so far (/proc/PID/stat, clock ticks)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def http_json(connection, method, path, headers, body=None):
    connection.request(method, path, body=json.dumps(body) if body is not None else None,
                       headers={"Content-Type": "application/json", **headers})
    response = connection.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else None)


def setup(args, connection):
    """The class or collection, an object in it (so the subscribed fields exist), and the socket URL."""
    if args.server == "cirrus":
        headers = {"X-LC-Id": args.app_id, "X-LC-Key": args.app_key}
        status, body = http_json(connection, "POST", "/1.1/classes/Bench", headers, {"room": "r0", "t": 0, "seq": -1})
        assert status in (200, 201), (status, body)
        status, body = http_json(connection, "GET", f"/v1/route?appId={args.app_id}&secure=1", headers)
        assert status == 200, (status, body)
        return headers, "/1.1/classes/Bench", body["server"]
    status, body = http_json(connection, "POST", "/api/collections/_superusers/auth-with-password", {},
                             {"identity": args.email, "password": args.password})
    assert status == 200, (status, body)
    admin = {"Authorization": body["token"]}
    collection = {"name": "bench", "type": "base", "listRule": "", "viewRule": "", "createRule": "",
                  "fields": [{"name": "room", "type": "text"}, {"name": "t", "type": "number"},
                             {"name": "seq", "type": "number"}]}
    status, body = http_json(connection, "POST", "/api/collections", admin, collection)
    assert status == 200, (status, body)
    status, body = http_json(connection, "POST", "/api/collections/bench/records", {}, {"room": "r0", "t": 0, "seq": -1})
    assert status == 200, (status, body)
    return {}, "/api/collections/bench/records", None


def percentile(values, fraction):
    return values[min(len(values) - 1, int(fraction * len(values)))] / 1e6 if values else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server", choices=["cirrus", "pocketbase"])
    parser.add_argument("url")
    parser.add_argument("pid", type=int)
    parser.add_argument("n", type=int)
    parser.add_argument("--rate", type=float, default=10)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--workers", type=int, default=0, help="client processes (0: one per 2 500 subscribers, at least 2)")
    parser.add_argument("--drain", type=float, default=15, help="seconds to wait for late events after the last write")
    parser.add_argument("--connect-timeout", type=float, default=600)
    parser.add_argument("--app-id")
    parser.add_argument("--app-key")
    parser.add_argument("--email")
    parser.add_argument("--password")
    parser.add_argument("--topic", default="bench/*")
    parser.add_argument("--client", choices=["raw", "websockets"], default="raw",
                        help="Cirrus sockets: read by a minimal asyncio protocol (raw, as the PocketBase SSE streams are) "
                             "or by the websockets package")
    parser.add_argument("--profile", help="perf.data path: perf record -e cpu-clock -g of the server during the writes")
    args = parser.parse_args()

    parsed = urllib.parse.urlsplit(args.url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    headers, write_path, socket_url = setup(args, connection)

    workers = args.workers or max(2, -(-args.n // 2500))
    shares = [args.n // workers + (1 if i < args.n % workers else 0) for i in range(workers)]
    context = multiprocessing.get_context("fork")
    counters = context.Array("q", workers, lock=False)
    connected = context.Array("q", workers, lock=False)
    errors = context.Array("q", workers, lock=False)
    stop = context.Event()
    scratch = tempfile.mkdtemp(prefix="lq-bench-")
    paths = [os.path.join(scratch, f"worker-{i}.bin") for i in range(workers)]
    processes = [context.Process(target=worker, args=(args, i, shares[i], socket_url, counters, connected, errors,
                                                       stop, paths[i]), daemon=True) for i in range(workers)]
    started = time.monotonic()
    for process in processes:
        process.start()
    try:
        while sum(connected) + sum(errors) < args.n:
            if time.monotonic() - started > args.connect_timeout:
                raise SystemExit(f"only {sum(connected)} of {args.n} subscribers connected in {args.connect_timeout} s")
            if not all(p.is_alive() for p in processes):
                raise SystemExit("a client process died")
            time.sleep(0.2)
        setup_seconds = time.monotonic() - started
        subscribers = sum(connected)
        failed_setup = sum(errors)
        print(f"   {subscribers} subscribers ready in {setup_seconds:.1f} s ({failed_setup} failed)", file=sys.stderr)
        time.sleep(3)
        rss_idle = rss_mb(args.pid)
        perf = None
        if args.profile:
            import subprocess
            perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-g", "-p", str(args.pid),
                                     "-o", args.profile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        # Each write is sent at its slot from a pool of threads with a keep-alive connection each, so a slow write
        # (PocketBase answers a create after it has fanned the event out) does not delay the next ones.
        local = threading.local()
        outcomes = []

        def write(seq):
            if not hasattr(local, "connection"):
                local.connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
            sent = time.time_ns()
            status, body = http_json(local.connection, "POST", write_path, headers, {"room": ROOM, "t": sent, "seq": seq})
            outcomes.append((status, (time.time_ns() - sent) / 1e6))
            if status not in (200, 201):
                print(f"   write {seq}: {status} {body}", file=sys.stderr)

        total = int(args.rate * args.duration)
        server_cpu_before = cpu_seconds(args.pid)
        begin = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            futures = []
            for seq in range(total):
                delay = begin + seq / args.rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                futures.append(pool.submit(write, seq))
            for future in futures:
                future.result()
        write_seconds = time.monotonic() - begin
        writes = sum(1 for status, _ in outcomes if status in (200, 201))
        write_ms = [ms for _, ms in outcomes]
        expected = writes * subscribers
        last = time.monotonic()
        while sum(counters) < expected and time.monotonic() - last < args.drain:
            time.sleep(0.1)
        rss_after = rss_mb(args.pid)
        received = sum(counters)
        server_cpu = cpu_seconds(args.pid) - server_cpu_before
        if perf:
            import signal
            perf.send_signal(signal.SIGINT)
            perf.wait(60)
    finally:
        stop.set()
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.kill()

    latencies = array.array("q")
    client_cpu = 0.0
    for path in paths:
        if os.path.exists(path):
            with open(path, "rb") as source:
                latencies.frombytes(source.read())
            with open(path + ".cpu") as source:
                client_cpu += float(source.read())
    shutil.rmtree(scratch, ignore_errors=True)
    values = sorted(latencies)
    write_ms.sort()
    print(json.dumps({
        "server": args.server, "client": args.client if args.server == "cirrus" else "raw", "n": args.n, "subscribers": subscribers, "setup_failures": failed_setup,
        "setup_s": round(setup_seconds, 1), "rate": args.rate, "writes": writes,
        "write_seconds": round(write_seconds, 1),
        "write_p50_ms": round(write_ms[len(write_ms) // 2], 2) if write_ms else None,
        "write_max_ms": round(write_ms[-1], 2) if write_ms else None,
        "expected": expected, "received": received, "recorded": len(values),
        "disconnects": sum(errors) - failed_setup,
        "p50_ms": percentile(values, 0.50), "p90_ms": percentile(values, 0.90), "p99_ms": percentile(values, 0.99),
        "max_ms": values[-1] / 1e6 if values else None,
        "rss_idle_mb": round(rss_idle, 1), "rss_after_mb": round(rss_after, 1), "client_cpu_s": round(client_cpu, 1),
        "server_cpu_s": round(server_cpu, 1),
    }))


if __name__ == "__main__":
    main()
