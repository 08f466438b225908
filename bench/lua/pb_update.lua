-- wrk script: PocketBase's PATCH /api/collections/bench/records/<id> with {"views+":1} (its increment modifier), for
-- random ids of the seeded set; the counterpart of update.lua.
-- Usage: wrk -s bench/lua/pb_update.lua URL -- IDS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local lines = require("lines")

local body = '{"views+":1}'

function init(args)
  lines.load(args[1])
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format("PATCH", "/api/collections/bench/records/" .. lines.random()[1], nil, body)
end
