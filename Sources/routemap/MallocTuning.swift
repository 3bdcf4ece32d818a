#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// glibc's allocator, tuned for a server that allocates and frees on many threads at once. Each
/// setting gives way to glibc's own environment variable when that is set.
enum MallocTuning {
    /// How many heaps glibc's allocator keeps: by default up to eight per core, a thread taking
    /// one of its own when the others are busy, each keeping what it freed for reuse. Under 256
    /// connections routemap's threads spread their peak over ten of them; two per core lowered
    /// the server's peak RSS by 2 to 4 MiB in two A/Bs, with no change in throughput beyond the
    /// noise (BENCHMARKS.md, runs J and K; one per core cost the order cycle 12%).
    /// `MALLOC_ARENA_MAX` wins.
    static func limitToTwoArenasPerCore() {
        #if canImport(Glibc)
        guard Environment.value("MALLOC_ARENA_MAX") == nil else { return }
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        _ = mallopt(CMALLOC_ARENA_MAX, Int32(2 * cores))
        #endif
    }

    /// How much free memory a heap may keep at its top before glibc hands it back to the
    /// kernel: 8 MiB instead of glibc's 128 KiB (which it raises only as large blocks come and
    /// go). At the default, the SQLite writer gave pages back after nearly every batch and
    /// faulted them in again for the next (`brk`, `madvise` and `free` were a tenth of its
    /// time): at 8 MiB the order cycle at 16 connections ran about a fifth faster in alternating
    /// rounds, with the same heap at its peak (BENCHMARKS.md, run Y). `MALLOC_TRIM_THRESHOLD_`
    /// wins.
    static func keepFreedMemoryForReuse() {
        #if canImport(Glibc)
        guard Environment.value("MALLOC_TRIM_THRESHOLD_") == nil else { return }
        _ = mallopt(CMALLOC_TRIM_THRESHOLD, 8 << 20)
        #endif
    }
}
