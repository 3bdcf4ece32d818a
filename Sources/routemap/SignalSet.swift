#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A set of signals the process receives synchronously, with `sigwait`, instead of in a handler.
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

    /// Waits until one of the (blocked) signals arrives and returns it.
    func wait() -> Int32 {
        var set = self.set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}
