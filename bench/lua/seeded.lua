-- Shared by the wrk scripts that draw random numbers: each wrk thread seeds its own generator, so that the threads do
-- not send the same sequence. A script calls seeded.setup as its setup and seeded.init() in its init.
local threads = 0

return {
  setup = function(thread)
    threads = threads + 1
    thread:set("thread_number", threads)
  end,
  init = function()
    math.randomseed(os.time() * 100 + (thread_number or 0))
  end,
}
