-- A plain GET of the URL's path, with an `Authorization: Bearer` header when BENCH_TOKEN is set.
-- The request is built once by wrk itself (no request() function), as for the yardsticks.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
local token = os.getenv("BENCH_TOKEN")
if token and token ~= "" then wrk.headers["Authorization"] = "Bearer " .. token end
