import CoreMetrics

/// The store's metrics, through swift-metrics (the program chooses the backend).
package enum StorageMetrics {
    /// Transactions per group commit (`WriteQueue`): 1 when writes come one at a time, more
    /// the more arrive while a commit is under way.
    static let batchSize = Recorder(label: "routemap_group_commit_batch_size", aggregate: true)
    /// Errors the database (SQLite or PostgreSQL) or reading its rows gave: failed reads,
    /// writes, commits.
    package static let databaseErrors = Counter(label: "routemap_database_errors_total")
    /// SQLite only: pages in the write-ahead log after the writer's last batch. It drops back
    /// when the log starts over after a checkpoint; one that keeps growing says checkpoints
    /// cannot finish (a long read holds them back, or they fail: see the errors).
    static let walPages = Gauge(label: "routemap_sqlite_wal_pages")

    /// Makes every metric now, so that a scrape shows each before it first moves.
    package static func register() {
        _ = batchSize
        _ = databaseErrors
    }
}
