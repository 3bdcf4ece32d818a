-- GET of the URL's path, each request with the next device token of the file BENCH_TOKENS (one a
-- line), so no one token exceeds the per-token rate limit: spread over N tokens, each token sees
-- 1/N of the rate. Requests are built once in init(); request() only picks the next one.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
local thread_count = 0
function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  prepared = {}
  local i = 0
  for line in io.lines(os.getenv("BENCH_TOKENS")) do
    -- Each thread starts at its own offset, so two threads rarely send the same token at once.
    if line ~= "" then
      i = i + 1
      prepared[i] = wrk.format("GET", wrk.path, { ["Authorization"] = "Bearer " .. line })
    end
  end
  count = i
  next_index = (thread_index * 7919) % count
end

function request()
  next_index = next_index % count + 1
  return prepared[next_index]
end
