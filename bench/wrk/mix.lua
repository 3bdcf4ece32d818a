-- The leak check's mixed load, all as the device of BENCH_TOKEN: per 10 requests, 5 GET /v1/menu/items,
-- 2 GET /v1/launch, 2 GET /v1/bills/{id} and 1 POST /v1/bills/{id}/items (latte, croissant or
-- espresso, merging into the bill's lines), over the bills of the file BENCH_BILLS. Requests are
-- built once in init(); request() only picks the next one.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
local thread_count = 0
function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  local auth = "Bearer " .. os.getenv("BENCH_TOKEN")
  local get = { ["Authorization"] = auth }
  local post = { ["Authorization"] = auth, ["Content-Type"] = "application/json" }
  local items = { "latte", "croissant", "espresso" }
  prepared = {}
  local i = 0
  for bill in io.lines(os.getenv("BENCH_BILLS")) do
    if bill ~= "" then
      i = i + 1
      local item = items[i % 3 + 1]
      local each = {
        wrk.format("GET", "/v1/menu/items", get), wrk.format("GET", "/v1/launch", get),
        wrk.format("GET", "/v1/bills/" .. bill, get), wrk.format("GET", "/v1/menu/items", get),
        wrk.format("POST", "/v1/bills/" .. bill .. "/items", post, '{"menuItemId":"' .. item .. '","quantity":1}'),
        wrk.format("GET", "/v1/menu/items", get), wrk.format("GET", "/v1/launch", get),
        wrk.format("GET", "/v1/menu/items", get), wrk.format("GET", "/v1/bills/" .. bill, get),
        wrk.format("GET", "/v1/menu/items", get),
      }
      for _, r in ipairs(each) do prepared[#prepared + 1] = r end
    end
  end
  count = #prepared
  next_index = (thread_index * 4999) % count
end

function request()
  next_index = next_index % count + 1
  return prepared[next_index]
end
