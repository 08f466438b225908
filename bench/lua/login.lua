-- wrk script: POST /1.1/login with the username and password of a random seeded user.
-- Usage: wrk -s bench/lua/login.lua URL -- APP_ID APP_KEY USERS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local lines = require("lines")

function init(args)
  lines.init(args)
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format("POST", "/1.1/login", nil, '{"username":"' .. lines.random()[1] .. '","password":"bench-password"}')
end
