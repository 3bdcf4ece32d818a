/// The settings one SQLite connection actually runs with, as its pragmas report them: for
/// the storage tests, which check the configuration took effect.
public struct SQLiteConnectionSettings: Sendable, Hashable {
    /// `wal` for every connection of the store.
    public let journalMode: String
    public let foreignKeysEnabled: Bool
    /// 0 off, 1 normal, 2 full, 3 extra.
    public let synchronous: Int
    public let busyTimeoutMilliseconds: Int

    public init(journalMode: String, foreignKeysEnabled: Bool, synchronous: Int, busyTimeoutMilliseconds: Int) {
        self.journalMode = journalMode
        self.foreignKeysEnabled = foreignKeysEnabled
        self.synchronous = synchronous
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }
}
