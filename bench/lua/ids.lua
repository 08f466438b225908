-- Shared by get.lua and update.lua: loads the seeded object ids (one per line) and picks one at random.
local ids = {}

-- In wrk's main Lua state: numbers each thread so that each draws its own random sequence.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

local function load(path)
  for line in io.lines(path) do
    if #line > 0 then ids[#ids + 1] = line end
  end
  assert(#ids > 0, "no ids in " .. path)
  math.randomseed(os.time() * 100 + (thread_number or 0))
end

local function random()
  return ids[math.random(#ids)]
end

return { load = load, random = random }
