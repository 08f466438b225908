-- wrk script: GET /1.1/classes/Private?where={"owner":"<id>"}&limit=20 as that owner (X-LC-Session).
-- Usage: wrk -s bench/lua/session_find.lua URL -- APP_ID APP_KEY FINDS_FILE
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local lines = require("lines")
init = lines.init

function request()
  local row = lines.random()
  return wrk.format("GET", "/1.1/classes/Private?limit=20&where=%7B%22owner%22%3A%22" .. row[2] .. "%22%7D", lines.headers({ ["X-LC-Session"] = row[1] }))
end
