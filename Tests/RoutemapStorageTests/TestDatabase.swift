import Foundation
import Logging
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// What the storage tests need of a store beyond ``POSStore``: counting rows.
protocol TestStore: POSStore {
    func rowCount(in table: String) throws -> Int
}

extension SQLiteStore: TestStore {}
extension PostgresStore: TestStore {}

/// A migrated database with one enrolled device that the tests act as: a SQLite file in its own
/// temporary directory, or, when `ROUTEMAP_TEST_DATABASE_URL` is set, a new database on that
/// PostgreSQL server. Deleted (dropped) with this object.
final class TestDatabase {
    let directory: TemporaryDirectory
    /// The SQLite file (unused on PostgreSQL).
    let path: String
    /// The PostgreSQL database's URL, or `nil` on SQLite.
    let url: String?
    let store: any TestStore
    /// The id of the device enrolled when the database was created.
    let device: String
    private var others: [PostgresStore] = []

    /// Whether these tests run on PostgreSQL (`ROUTEMAP_TEST_DATABASE_URL`); suites about
    /// SQLite itself run only when not.
    static var onPostgres: Bool { TestPostgres.isEnabled }

    /// - Parameter versionCheckDeadline: on PostgreSQL, the store's bill version check deadline
    ///   (`nil`: the production one).
    init(versionCheckDeadline: Duration? = nil) async throws {
        directory = try TemporaryDirectory()
        path = directory.path("routemap.sqlite")
        if TestPostgres.isEnabled {
            let url = try TestPostgres.newDatabase()
            self.url = url
            store = try PostgresStore(
                url: DatabaseURL(url)!, migrations: try StorageFixtures.postgresMigrations(), connections: 8,
                versionCheckDeadline: versionCheckDeadline, logger: Logger(label: "routemap.postgres"))
        } else {
            url = nil
            store = try SQLiteStore(path: path, migrations: try StorageFixtures.migrations())
        }
        device = try await DeviceDirectory(store: store).enroll(name: "Front counter").device.id
    }

    deinit {
        guard let url else { return }
        for other in others { other.close() }
        (store as? PostgresStore)?.close()
        TestPostgres.dropDatabase(url)
    }

    /// The SQLite store, for suites about SQLite itself (which do not run on PostgreSQL).
    var sqlite: SQLiteStore {
        guard let store = store as? SQLiteStore else { preconditionFailure("a SQLite-only test ran on PostgreSQL") }
        return store
    }

    /// Another store on the same database: the file opened again (a restart), or a second
    /// connection pool on the PostgreSQL database (another node).
    func reopen() throws -> any TestStore {
        guard let url else { return try SQLiteStore(path: path, migrations: try StorageFixtures.migrations()) }
        let other = try PostgresStore(url: DatabaseURL(url)!, migrations: try StorageFixtures.postgresMigrations(), connections: 8)
        others.append(other)
        return other
    }

    func till(taxRate: TaxRate = StorageFixtures.rate875, now: @escaping @Sendable () -> Date = Date.init) -> Till {
        Till(store: store, taxRate: taxRate, currency: .usd, now: now)
    }

    /// Enrolls another device and returns its id.
    func enrollDevice(name: String = "Back counter") async throws -> String {
        try await DeviceDirectory(store: store).enroll(name: name).device.id
    }
}
