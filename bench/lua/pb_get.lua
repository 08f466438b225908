-- wrk script: PocketBase's GET /api/collections/bench/records/<id> for random ids of the seeded set (bench/peers.sh;
-- the collection's view rule is public).
-- Usage: wrk -s bench/lua/pb_get.lua URL -- IDS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local lines = require("lines")

function init(args)
  lines.load(args[1])
end

function request()
  return wrk.format("GET", "/api/collections/bench/records/" .. lines.random()[1])
end
