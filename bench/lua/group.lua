-- wrk script: GET /1.1/classes/Bench?where={"group":N}&limit=20 for a random N in 0..GROUPS-1 (bench/peers.sh: the
-- seeded objects have GROUPS values of `group`, indexed, 20 objects each).
-- Usage: wrk -s bench/lua/group.lua URL -- APP_ID APP_KEY GROUPS
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local seeded = require("seeded")
setup = seeded.setup

local groups

function init(args)
  wrk.headers["X-LC-Id"] = args[1]
  wrk.headers["X-LC-Key"] = args[2]
  groups = tonumber(args[3])
  seeded.init()
end

function request()
  -- where={"group":N}, URL-encoded
  return wrk.format("GET", string.format("/1.1/classes/Bench?where=%%7B%%22group%%22%%3A%d%%7D&limit=20", math.random(0, groups - 1)))
end
