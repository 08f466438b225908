-- wrk script: POST /1.1/classes/Bench (or the class given third), a new small object per request.
-- Usage: wrk -s bench/lua/create.lua URL -- APP_ID APP_KEY [CLASS]

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
  local body = string.format(
    '{"title":"created by wrk %d","score":%d,"done":false,"tags":["bench","create"],"meta":{"n":%d}}',
    counter, counter % 1000, counter)
  return wrk.format(nil, nil, nil, body)
end
