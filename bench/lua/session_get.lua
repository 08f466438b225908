-- wrk script: GET /1.1/classes/Private/<id> as a user allowed to read it (X-LC-Session): session and role lookup,
-- then the ACL predicate in SQL.
-- Usage: wrk -s bench/lua/session_get.lua URL -- APP_ID APP_KEY OBJECTS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local lines = require("lines")
init = lines.init

function request()
  local row = lines.random()
  return wrk.format("GET", "/1.1/classes/Private/" .. row[1], lines.headers({ ["X-LC-Session"] = row[2] }))
end
