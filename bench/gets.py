#!/usr/bin/env python3
"""Sends COUNT gets by id of seeded objects (random ids from IDS_FILE), one after the other on one keep-alive
connection, and fails on any answer but 200.

Usage: gets.py URL APP_ID APP_KEY IDS_FILE COUNT
"""
import http.client, random, sys, urllib.parse

url, app_id, app_key, ids_file, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
ids = open(ids_file).read().split()
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
random.seed(1)
for _ in range(count):
    connection.request("GET", "/1.1/classes/Bench/" + random.choice(ids), headers={"X-LC-Id": app_id, "X-LC-Key": app_key})
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        sys.exit(f"GET answered {response.status}")
