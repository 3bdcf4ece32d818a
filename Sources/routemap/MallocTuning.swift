#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// glibc's allocator, tuned for a server that allocates and frees on many threads at once. Each
/// setting gives way to glibc's own environment variable when that is set.
///
/// - Arenas, two per core (`MALLOC_ARENA_MAX`): glibc keeps up to eight heaps per core, a thread
///   taking one of its own when the others are busy, each keeping what it freed for reuse. Under
///   256 connections routemap's threads spread their peak over ten of them; two per core lowered
///   the server's peak RSS by 2 to 4 MiB in two A/Bs, with no change in throughput beyond the
///   noise (BENCHMARKS.md, runs J and K; one per core cost the order cycle 12%).
/// - Trim threshold, 8 MiB (`MALLOC_TRIM_THRESHOLD_`): how much free memory a heap may keep at
///   its top before glibc hands it back to the kernel (glibc's default is 128 KiB, raised only
///   as large blocks come and go). At the default the SQLite writer gave memory back after
///   nearly every batch and took it again for the next (`brk` and `madvise` were about 7% of its
///   samples); at 8 MiB the order cycle at 16 connections ran 17% faster in alternating rounds,
///   with the same peak RSS (BENCHMARKS.md, run Y).
enum MallocTuning {
    /// Applies both settings; call it before the server's threads start.
    static func apply() {
        #if canImport(Glibc)
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        set(CMALLOC_ARENA_MAX, to: Int32(2 * cores), unless: "MALLOC_ARENA_MAX")
        set(CMALLOC_TRIM_THRESHOLD, to: 8 << 20, unless: "MALLOC_TRIM_THRESHOLD_")
        #endif
    }

    #if canImport(Glibc)
    /// `mallopt(parameter, value)`, unless the operator chose through glibc's `variable`.
    private static func set(_ parameter: Int32, to value: Int32, unless variable: String) {
        guard Environment.value(variable) == nil else { return }
        _ = mallopt(parameter, value)
    }
    #endif
}
