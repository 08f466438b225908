-- Shared by the wrk scripts: the app's credentials, and a file of space-separated fields (one record per line) to pick
-- records from at random.
local records = {}

-- In wrk's main Lua state: numbers each thread so that each draws its own random sequence.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

local function load(path)
  for line in io.lines(path) do
    if #line > 0 then
      local fields = {}
      for field in line:gmatch("%S+") do fields[#fields + 1] = field end
      records[#records + 1] = fields
    end
  end
  assert(#records > 0, "no records in " .. path)
  math.randomseed(os.time() * 100 + (thread_number or 0))
end

-- wrk's init for scripts called as `wrk -s SCRIPT URL -- APP_ID APP_KEY FILE`.
local function init(args)
  wrk.headers["X-LC-Id"] = args[1]
  wrk.headers["X-LC-Key"] = args[2]
  load(args[3])
end

local function random()
  return records[math.random(#records)]
end

-- wrk.headers plus `extra`: wrk.format uses the table it is given instead of wrk.headers, not both.
local function headers(extra)
  local merged = {}
  for name, value in pairs(wrk.headers) do merged[name] = value end
  for name, value in pairs(extra) do merged[name] = value end
  return merged
end

return { load = load, init = init, random = random, headers = headers }
