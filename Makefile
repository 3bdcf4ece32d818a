# Shortcuts; the scripts do the work (and install what they need on Debian/Ubuntu).
.PHONY: bench bench-smoke bench-leak container-test

# The benchmark: the table of scenarios with ratios to the yardsticks (BENCHMARKS.md).
bench:
	bench/run

# A seconds-long run of the benchmark harness, as CI runs it.
bench-smoke:
	YARDSTICK_SKIP_HUMMINGBIRD=1 bench/run --smoke

# RSS after 1 and 2 million requests.
bench-leak:
	bench/run --leak

# The container's runtime stage, proven without a Docker engine (needs root; README, "Running in
# a container"). The last step of ./scripts/test.
container-test:
	scripts/container-test
