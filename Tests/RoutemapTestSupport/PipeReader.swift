import Foundation
import Synchronization

/// Everything written to a pipe, read on a thread of its own until every writer has closed it.
///
/// A blocking reader rather than `FileHandle.readabilityHandler`: that handler runs on a
/// libdispatch read source, and libdispatch's epoll loop on Linux has crashed this test process
/// (SIGSEGV in `_dispatch_event_loop_drain`, the crash swift-subprocess's issue 47 reports for
/// its dispatch sources). A thread that reads until end of file needs no event loop.
public final class PipeReader: Sendable {
    private let collected = Mutex(Data())

    /// Starts reading `pipe` now. Its own copy of the read end closes at end of file, so the
    /// pipe's handles may go away before then.
    public init(_ pipe: Pipe) {
        let descriptor = fcntl(pipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else { return }
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                collected.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
            close(descriptor)
        }.start()
    }

    /// What was read so far.
    public var data: Data { collected.withLock { $0 } }

    /// What was read so far, as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }
}
