-- wrk script: POST /1.1/functions/BenchBefore/beforeSave to a LeanEngine app, as Cirrus calls a beforeSave hook.
-- Usage: wrk -s bench/lua/hook.lua ENGINE_URL -- APP_ID MASTER_KEY HOOK_KEY

function init(args)
  wrk.method = "POST"
  wrk.path = "/1.1/functions/BenchBefore/beforeSave"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["X-LC-Id"] = args[1]
  wrk.headers["X-LC-Key"] = args[2] .. ",master"
  wrk.headers["X-LC-Hook-Key"] = args[3]
  wrk.body = '{"object":{"title":"created by wrk","score":1,"done":false,"tags":["bench","create"],"meta":{"n":1}}}'
end
