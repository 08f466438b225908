-- wrk script: the query benchmark's finds, with a fresh random category or score range per request.
-- Usage: wrk -s bench/lua/query.lua URL -- APP_ID APP_KEY SCENARIO
--   equality  GET /1.1/classes/Item?where={"category":N}                                   (100 of 1 000 matches)
--   range     GET /1.1/classes/Item?where={"score":{"$gte":X,"$lt":X+5000}}&order=-score&limit=20
--   count     GET /1.1/classes/Item?where={"category":N}&count=1&limit=0
--   include   GET /1.1/classes/Item?where={"category":N}&limit=20&include=a,b,c
package.path = debug.getinfo(1, "S").source:match("@(.*/)") .. "?.lua;" .. package.path
local seeded = require("seeded")
setup = seeded.setup

local scenario

function init(args)
  wrk.headers["X-LC-Id"] = args[1]
  wrk.headers["X-LC-Key"] = args[2]
  scenario = args[3]
  seeded.init()
end

local function escape(text)
  return (text:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

function request()
  local path
  if scenario == "equality" then
    path = "where=" .. escape(string.format('{"category":%d}', math.random(0, 999)))
  elseif scenario == "range" then
    local low = math.random(0, 995000)
    path = "where=" .. escape(string.format('{"score":{"$gte":%d,"$lt":%d}}', low, low + 5000)) .. "&order=-score&limit=20"
  elseif scenario == "count" then
    path = "where=" .. escape(string.format('{"category":%d}', math.random(0, 999))) .. "&count=1&limit=0"
  elseif scenario == "include" then
    path = "where=" .. escape(string.format('{"category":%d}', math.random(0, 999))) .. "&limit=20&include=a,b,c"
  else
    error("unknown scenario " .. tostring(scenario))
  end
  return wrk.format("GET", "/1.1/classes/Item?" .. path)
end
