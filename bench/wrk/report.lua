-- Shared by every wrk scenario of bench/run: done() prints one machine-readable line.
-- Each scenario script sets `bench_threads` (the table of wrk threads) if it has per-thread state.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p99_us=%d errors_status=%d errors_socket=%d errors_timeout=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write, e.timeout))
  if bench_done then bench_done() end
end
