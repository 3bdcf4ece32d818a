import Foundation
import RoutemapDomain
import RoutemapStorage

/// A migrated SQLite file in its own temporary directory, deleted with this object.
final class TestDatabase {
    let directory: TemporaryDirectory
    let path: String
    let store: SQLiteStore

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("routemap.sqlite")
        store = try SQLiteStore(path: path, migrations: try StorageFixtures.migrations())
    }

    func till(taxRate: TaxRate = StorageFixtures.rate875) -> Till {
        Till(store: store, taxRate: taxRate, currency: .usd)
    }
}
