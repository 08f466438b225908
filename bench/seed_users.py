#!/usr/bin/env python3
"""Seeds a running cirrus for the users benchmark: USERS users (password "bench-password"), each in one of ROLES roles,
and OBJECTS objects of class Private, each readable and writable by one user and readable by one role.

Writes three files: users.txt ("username sessionToken objectId" per line), objects.txt ("objectId sessionToken" per
line: an object and the token of a user who may read it) and finds.txt ("sessionToken ownerId" per line).

Usage: seed_users.py URL APP_ID APP_KEY MASTER_KEY USERS ROLES OBJECTS WORK_DIR
"""

import json
import sys
import urllib.request

BATCH = 500


def call(url, path, headers, body, method="POST"):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method=method,
                                     headers=dict(headers, **{"Content-Type": "application/json"}))
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.load(response)


def main():
    url, app_id, app_key, master_key, users, roles, objects, work = sys.argv[1:9]
    users, roles, objects = int(users), int(roles), int(objects)
    client = {"X-LC-Id": app_id, "X-LC-Key": app_key}
    master = {"X-LC-Id": app_id, "X-LC-Key": master_key + ",master"}
    accounts = []
    for number in range(users):
        reply = call(url, "/1.1/users", client, {"username": "bench-user-%d" % number, "password": "bench-password"})
        accounts.append((reply["username"], reply["sessionToken"], reply["objectId"]))
    for role in range(roles):
        members = [{"__type": "Pointer", "className": "_User", "objectId": account[2]}
                   for index, account in enumerate(accounts) if index % roles == role]
        call(url, "/1.1/roles", master, {"name": "BenchRole%d" % role, "ACL": {"*": {"read": True}},
                                         "users": {"__op": "AddRelation", "objects": members}})
    rows = []
    while len(rows) < objects:
        size = min(BATCH, objects - len(rows))
        requests = []
        for offset in range(size):
            index = len(rows) + offset
            owner = accounts[index % users]
            acl = {owner[2]: {"read": True, "write": True}, "role:BenchRole%d" % ((index // users) % roles): {"read": True}}
            requests.append({"method": "POST", "path": "/1.1/classes/Private",
                             "body": {"owner": owner[2], "score": index % 1000, "ACL": acl}})
        for offset, entry in enumerate(call(url, "/1.1/batch", master, {"requests": requests})):
            if "success" not in entry:
                sys.exit("seeding failed: %s" % json.dumps(entry))
            rows.append((entry["success"]["objectId"], accounts[(len(rows)) % users][1]))
    call(url, "/1.1/schemas/Private", master, {"indexes": {"owner_1": {"owner": 1}}}, method="PUT")
    with open(work + "/users.txt", "w") as out:
        out.write("\n".join("%s %s %s" % account for account in accounts) + "\n")
    with open(work + "/objects.txt", "w") as out:
        out.write("\n".join("%s %s" % row for row in rows) + "\n")
    with open(work + "/finds.txt", "w") as out:
        out.write("\n".join("%s %s" % (account[1], account[2]) for account in accounts) + "\n")
    print("seeded %d users in %d roles and %d objects" % (users, roles, len(rows)))


if __name__ == "__main__":
    main()
