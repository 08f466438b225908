-- wrk script: PUT /1.1/classes/Bench/<id> with an Increment, for random ids of the seeded set.
-- Usage: wrk -s bench/lua/update.lua URL -- APP_ID APP_KEY IDS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local ids = require("ids")

local body = '{"views":{"__op":"Increment","amount":1}}'

function init(args)
  ids.init(args)
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format("PUT", "/1.1/classes/Bench/" .. ids.random(), nil, body)
end
