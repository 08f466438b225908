#!/usr/bin/env python3
"""Sends one push to the channel `bench` through a running cirrus and measures it (bench/push.sh).

Reads the server's memory (VmRSS and RssAnon of /proc/PID/status) for a few seconds before the push, then every
0.5 s from the push's POST until its record says `done`, polls `GET /1.1/notifications/<id>` every 0.1 s, and reads
the APNs stand-in's `apnsAccepted` before and after. With --profile PATH, `perf record -e cpu-clock -g` of the server
runs from the POST until the push is done.

Prints one JSON object: n, seconds (the record's updatedAt - createdAt: from the push's creation to its last page),
wall_seconds (POST sent to `done` seen), per_second, status, successes, errors, invalid, accepted and refused (what
this push added to the stand-in's apnsAccepted and apnsRefusals), rss_before_mb, rss_peak_mb, rss_after_mb, anon_*
(the same for RssAnon), server_cpu_s and stand_ins_cpu_s (user + system CPU during the send), rss_samples_mb (one
per 0.5 s), rss_idle_mb (the samples before the push).

Usage: push_send.py URL APP_ID MASTER_KEY SERVER_PID STAND_INS_PID CONTROL_URL N [--profile PATH] [--timeout S]
"""

import argparse
import datetime
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def memory(pid):
    """(VmRSS, RssAnon) of the process in MB."""
    values = {}
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["RssAnon"]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def call(method, url, headers=None, body=None):
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers=dict(headers or {}, **{"Content-Type": "application/json"}), method=method)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def timestamp(iso):
    return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()


def main():
    parser = argparse.ArgumentParser()
    for name in ("url", "app_id", "master_key"):
        parser.add_argument(name)
    parser.add_argument("server_pid", type=int)
    parser.add_argument("stand_ins_pid", type=int)
    parser.add_argument("control_url")
    parser.add_argument("n", type=int)
    parser.add_argument("--profile")
    parser.add_argument("--timeout", type=float, default=0, help="seconds to wait for done (default 120 + N / 100)")
    options = parser.parse_args()
    headers = {"X-LC-Id": options.app_id, "X-LC-Key": options.master_key + ",master"}
    timeout = options.timeout or 120 + options.n / 100

    before = call("GET", options.control_url + "/deliveries")
    accepted_before, refused_before = before["apnsAccepted"], len(before["apnsRefusals"])
    idle = []
    for _ in range(6):  # 3 s of the server idle after seeding
        idle.append(memory(options.server_pid))
        time.sleep(0.5)
    rss_before, anon_before = idle[-1]

    samples = []
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            try:
                samples.append(memory(options.server_pid))
            except OSError:
                return
            stop.wait(0.5)

    perf = None
    if options.profile:
        perf = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-g", "-p", str(options.server_pid), "-o", options.profile],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
    cpu_before = cpu_seconds(options.server_pid), cpu_seconds(options.stand_ins_pid)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    object_id = call("POST", options.url + "/1.1/push", headers, {"channels": ["bench"], "data": {"alert": "bench"}})["objectId"]
    record = {}
    while time.monotonic() - started < timeout:
        record = call("GET", options.url + "/1.1/notifications/" + object_id, headers)
        if record.get("status") not in ("scheduled", "sending"):
            break
        time.sleep(0.1)
    wall = time.monotonic() - started
    stop.set()
    sampler.join()
    cpu_after = cpu_seconds(options.server_pid), cpu_seconds(options.stand_ins_pid)
    if perf:
        perf.send_signal(signal.SIGINT)
        perf.wait()
    rss_after, anon_after = memory(options.server_pid)
    after = call("GET", options.control_url + "/deliveries")
    accepted, refused = after["apnsAccepted"] - accepted_before, len(after["apnsRefusals"]) - refused_before

    done = record.get("status") == "done"
    seconds = timestamp(record["updatedAt"]) - timestamp(record["createdAt"]) if done else wall
    print(json.dumps({
        "n": options.n, "object_id": object_id, "status": record.get("status", "unknown"),
        "seconds": round(seconds, 2), "wall_seconds": round(wall, 2), "per_second": round(options.n / seconds) if seconds else 0,
        "successes": record.get("successes"), "errors": record.get("errors"), "invalid": record.get("invalid"),
        "accepted": accepted, "refused": refused,
        "rss_before_mb": round(rss_before, 1), "rss_peak_mb": round(max(s[0] for s in samples + [(rss_after, 0)]), 1),
        "rss_after_mb": round(rss_after, 1),
        "anon_before_mb": round(anon_before, 1), "anon_peak_mb": round(max(s[1] for s in samples + [(0, anon_after)]), 1),
        "anon_after_mb": round(anon_after, 1),
        "rss_idle_mb": [round(s[0], 1) for s in idle],
        "server_cpu_s": round(cpu_after[0] - cpu_before[0], 2), "stand_ins_cpu_s": round(cpu_after[1] - cpu_before[1], 2),
        "rss_samples_mb": [round(s[0], 1) for s in samples],
    }))
    if not done:
        print("the push did not finish within %d s: %s" % (timeout, json.dumps(record)), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
