import Foundation
import RoutemapDomain
import RoutemapStorage

/// A migrated SQLite file in its own temporary directory, deleted with this object, with one
/// enrolled device that the tests act as.
final class TestDatabase {
    let directory: TemporaryDirectory
    let path: String
    let store: SQLiteStore
    /// The id of the device enrolled when the database was created.
    let device: String

    init() async throws {
        directory = try TemporaryDirectory()
        path = directory.path("routemap.sqlite")
        store = try SQLiteStore(path: path, migrations: try StorageFixtures.migrations())
        device = try await DeviceDirectory(store: store).enroll(name: "Front counter").device.id
    }

    func till(taxRate: TaxRate = StorageFixtures.rate875, now: @escaping @Sendable () -> Date = Date.init) -> Till {
        Till(store: store, taxRate: taxRate, currency: .usd, now: now)
    }

    /// Enrolls another device and returns its id.
    func enrollDevice(name: String = "Back counter") async throws -> String {
        try await DeviceDirectory(store: store).enroll(name: name).device.id
    }
}
