-- wrk script: PocketBase's POST /api/collections/bench/records, a new small record per request: create.lua's body.
-- Usage: wrk -s bench/lua/pb_create.lua URL

package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local bodies = require("bodies")
local counter = 0

function init(args)
  wrk.method = "POST"
  wrk.path = "/api/collections/bench/records"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  return wrk.format(nil, nil, nil, bodies.object(counter))
end
