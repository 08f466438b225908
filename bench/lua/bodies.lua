-- Shared by create.lua and pb_create.lua: the small object each create sends (numbered n).
return {
  object = function(n)
    return string.format('{"title":"created by wrk %d","score":%d,"done":false,"tags":["bench","create"],"meta":{"n":%d}}', n, n % 1000, n)
  end,
}
