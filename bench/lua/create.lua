-- wrk script: POST /1.1/classes/Bench (or the class given third), a new small object per request.
-- Usage: wrk -s bench/lua/create.lua URL -- APP_ID APP_KEY [CLASS]

package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local bodies = require("bodies")
local counter = 0

function init(args)
  wrk.method = "POST"
  wrk.path = "/1.1/classes/" .. (args[3] or "Bench")
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["X-LC-Id"] = args[1]
  wrk.headers["X-LC-Key"] = args[2]
end

function request()
  counter = counter + 1
  return wrk.format(nil, nil, nil, bodies.object(counter))
end
