#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A set of signals to block in every thread, so that only a reader of them (the service
/// group's signal source) receives them, not a handler on some thread.
struct SignalSet {
    private var set = sigset_t()

    init(_ signals: [Int32]) {
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
    }

    /// Blocks the signals for the calling thread and every thread it starts afterwards.
    func block() {
        var set = self.set
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
