#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// How many heaps glibc's allocator keeps: by default up to eight per core, a thread taking one
/// of its own when the others are busy, each keeping what it freed for reuse. Under 256
/// connections routemap's threads spread their peak over ten of them; two per core lowered the
/// server's peak RSS by 2 to 4 MiB in two A/Bs, with no change in throughput beyond the noise
/// (BENCHMARKS.md, runs J and K; one per core cost the order cycle 12%). `MALLOC_ARENA_MAX`, when set, wins.
enum MallocArenas {
    static func limitToTwoPerCore() {
        #if canImport(Glibc)
        guard Environment.value("MALLOC_ARENA_MAX") == nil else { return }
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        _ = mallopt(CMALLOC_ARENA_MAX, Int32(2 * cores))
        #endif
    }
}
