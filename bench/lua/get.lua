-- wrk script: GET /1.1/classes/Bench/<id> for random ids of the seeded set.
-- Usage: wrk -s bench/lua/get.lua URL -- APP_ID APP_KEY IDS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local ids = require("ids")

init = ids.init

function request()
  return wrk.format("GET", "/1.1/classes/Bench/" .. ids.random())
end
