"""Hostile bodies: CLIENTS clients at once each send a SIZE_MB body the server must not keep, while the server's
resident memory is read: before, at its peak during each scenario (VmHWM, reset between scenarios) and after.

Usage: python3 bench/hostile_bodies.py URL SERVER_PID APP_ID APP_KEY [CLIENTS] [SIZE_MB]
"""
import socket, sys, threading, time, urllib.parse

url, pid, app_id, app_key = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
clients = int(sys.argv[5]) if len(sys.argv) > 5 else 64
size = (int(sys.argv[6]) if len(sys.argv) > 6 else 20) * 1024 * 1024
host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port


def memory():
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


def reset_peak():
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def send(head, chunked, statuses):
    """Sends the head, then SIZE bytes of body as fast as the server takes them, and reads the answer."""
    block = b"x" * 65536
    s = socket.create_connection((host, port))
    s.settimeout(60)
    status = "no answer"
    try:
        s.sendall(head)
        sent = 0
        while sent < size:
            data = (b"%x\r\n" % len(block) + block + b"\r\n") if chunked else block
            s.sendall(data)
            sent += len(block)
        if chunked:
            s.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server answered and closed: the rest of the body is not wanted
    try:
        reply = s.recv(4096)
        status = reply.split(b" ", 2)[1].decode() if reply.startswith(b"HTTP/") else "closed"
    except OSError as error:
        status = type(error).__name__
    s.close()
    statuses.append(status)


def scenario(name, head, chunked):
    reset_peak()
    before, _ = memory()
    statuses = []
    start = time.time()
    threads = [threading.Thread(target=send, args=(head, chunked, statuses)) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.time() - start
    time.sleep(1)
    after, peak = memory()
    answers = {status: statuses.count(status) for status in set(statuses)}
    print(f"{name:<58} RSS before {before:>5} MB, peak {peak:>5} MB, after {after:>5} MB; {took:5.1f} s; answers {answers}")


request = f"POST /1.1/classes/Bench HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
keys = f"X-LC-Id: {app_id}\r\nX-LC-Key: {app_key}\r\n"
print(f"== {clients} clients at once, each sending a {size // 1048576} MB body")
scenario("no credentials, Content-Length", (request + f"Content-Length: {size}\r\n\r\n").encode(), False)
scenario("no credentials, chunked", (request + "Transfer-Encoding: chunked\r\n\r\n").encode(), True)
scenario("app key, Content-Length beyond the body limit", (request + keys + f"Content-Length: {size + 1}\r\n\r\n").encode(), False)
scenario("app key, chunked beyond the body limit", (request + keys + "Transfer-Encoding: chunked\r\n\r\n").encode(), True)
