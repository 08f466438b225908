-- wrk script: GET /1.1/classes/Bench/<id> for random ids of the seeded set.
-- Usage: wrk -s bench/lua/get.lua URL -- APP_ID APP_KEY IDS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local ids = require("ids")

function init(args)
  wrk.headers["X-LC-Id"] = args[1]
  wrk.headers["X-LC-Key"] = args[2]
  ids.load(args[3])
end

function request()
  return wrk.format("GET", "/1.1/classes/Bench/" .. ids.random())
end
