-- wrk script: PocketBase's GET /api/collections/bench/records?filter=(group=N)&perPage=20&skipTotal=1 for a random N
-- in 0..GROUPS-1, the counterpart of group.lua (skipTotal: no count query, as cirrus counts only when asked).
-- Usage: wrk -s bench/lua/pb_query.lua URL -- GROUPS
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local seeded = require("seeded")
setup = seeded.setup

local groups

function init(args)
  groups = tonumber(args[1])
  seeded.init()
end

function request()
  -- filter=(group=N), URL-encoded
  return wrk.format("GET", string.format("/api/collections/bench/records?filter=%%28group%%3D%d%%29&perPage=20&skipTotal=1", math.random(0, groups - 1)))
end
