-- POST /v1/bills/{id}/items, each request on the next pre-created open bill of the file BENCH_BILLS
-- (one id a line), all owned by the device of BENCH_TOKEN. wrk thread k of n takes the bills
-- k, k+n, k+2n, ..., so no two requests share a bill until every bill has had one. If the run
-- outlasts the bills it starts over, and the item merges into the line already there (the
-- quantity grows; no bill gains a line): bench_done() reports how many bills had a second add.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
local thread_count = 0
bench_threads = {}
function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
  table.insert(bench_threads, thread)
end

function init(args)
  bills = {}
  local token = os.getenv("BENCH_TOKEN")
  local all = {}
  for line in io.lines(os.getenv("BENCH_BILLS")) do
    if line ~= "" then all[#all + 1] = line end
  end
  -- Threads stride over the list; the stride is the thread count, passed by bench/run.
  local stride = tonumber(os.getenv("BENCH_WRK_THREADS"))
  for i = thread_index + 1, #all, stride do bills[#bills + 1] = all[i] end
  headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
  body = '{"menuItemId":"latte","quantity":1}'
  bill_count = #bills
  sent = 0
end

function request()
  local bill = bills[sent % #bills + 1]
  sent = sent + 1
  return wrk.format("POST", "/v1/bills/" .. bill .. "/items", headers, body)
end

function bench_done()
  local sent_total, bills_total = 0, 0
  for _, thread in ipairs(bench_threads) do
    sent_total = sent_total + thread:get("sent")
    bills_total = bills_total + thread:get("bill_count")
  end
  io.write(string.format("BENCH_NOTE add_requests_sent=%d bills=%d reused_bills=%d\n",
    sent_total, bills_total, math.max(0, math.min(bills_total, sent_total - bills_total))))
end
