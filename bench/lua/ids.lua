-- Shared by get.lua and update.lua: the seeded object ids (one per line), one picked at random.
local lines = require("lines")

return { init = lines.init, load = lines.load, random = function() return lines.random()[1] end }
