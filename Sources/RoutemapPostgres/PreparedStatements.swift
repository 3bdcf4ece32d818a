import Synchronization

/// The names of the statements prepared on one connection (``Session/rows(prepared:)``).
///
/// postgres-nio prepares a statement on a connection the first time it runs there and keeps a
/// failed preparation's error as the statement's answer for as long as the connection lives.
/// So a statement's first run on a connection goes with nothing ahead of it that may fail, and
/// a connection whose first run failed is closed; this records which statements are past that.
final class PreparedStatements: Sendable {
    private let names = Mutex<Set<String>>([])

    init() {}

    func contains(_ name: String) -> Bool {
        names.withLock { $0.contains(name) }
    }

    func insert(_ name: String) {
        _ = names.withLock { $0.insert(name) }
    }
}
