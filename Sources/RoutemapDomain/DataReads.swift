/// Where a store's synchronous reads run: in the caller's thread when they are answered in
/// this process (SQLite: a local file and caches), or, when each may be a round trip to a
/// database server (PostgreSQL), inside ``reading(_:)``, which makes them without holding a
/// thread the caller needs. Every app's store, and the API's routes registered with
/// `reading:`, go by this one declaration.
public protocol DataReads: Sendable {
    /// Whether reads are answered in this process without waiting on a network, so a
    /// request's thread may make them. The default: yes.
    var readsAreImmediate: Bool { get }
    /// Runs `body`, which reads synchronously, where its reads may wait without holding the
    /// caller's thread, and returns its result. The default runs it.
    func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T
}

extension DataReads {
    public var readsAreImmediate: Bool { true }

    public func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try body()
    }
}
