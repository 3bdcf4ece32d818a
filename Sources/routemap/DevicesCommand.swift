import ArgumentParser
import Foundation
import RoutemapDomain
import RoutemapStorage

/// `routemap devices`: the devices of a database file, for an operator on the machine — list
/// them, enroll one (the first manager), revoke one, give one a new token. A running server
/// on the same file refuses a revoked token within a second (it compares the file's device
/// revision that often); a rotated device's old token, once the new one is used.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List, enroll, revoke or re-key the devices of a database.",
        subcommands: [List.self, Enroll.self, Revoke.self, Rotate.self])

    /// Opens the database of `options`, which must exist at this binary's latest migration.
    static func open(_ options: StoreOptions) throws -> OpenedStore {
        try options.openExisting(connections: 1)
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every device: id, role, name, enrolled, revoked.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try DevicesCommand.open(store)
            defer { try? database.close() }
            let style = Date.ISO8601FormatStyle()
            for device in try await DeviceDirectory(store: database.store).all() {
                let revoked = device.revokedAt.map { "revoked \($0.formatted(style))" } ?? "active"
                print("\(device.id)\t\(device.role.rawValue)\t\(device.name)\t\(device.createdAt.formatted(style))\t\(revoked)")
            }
        }
    }

    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enroll a device (the first manager, say) and print its token, once.")
        @OptionGroup var store: StoreOptions
        @Option(help: "What to call the device.") var name: String
        @Option(help: "till or manager.") var role: String = "manager"

        func run() async throws {
            guard let role = DeviceRole(rawValue: role) else {
                throw refusal("--role must be till or manager", exitStatus: ExitCode.validationFailure.rawValue)
            }
            guard DisplayName.isValid(name) else {
                throw refusal("--name must be \(DisplayName.rule)", exitStatus: ExitCode.validationFailure.rawValue)
            }
            let database = try DevicesCommand.open(store)
            defer { try? database.close() }
            let (device, token) = try await DeviceDirectory(store: database.store).enroll(name: name, role: role)
            print("enrolled \(device.id) (\(device.role.rawValue), \(device.name))")
            print("token: \(token.value)")
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a device: its token stops working.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The device's id (dev_…).") var deviceId: String

        func run() async throws {
            let database = try DevicesCommand.open(store)
            defer { try? database.close() }
            do {
                let device = try await DeviceDirectory(store: database.store).revoke(id: deviceId)
                print("revoked \(device.id) (\(device.role.rawValue), \(device.name))")
            } catch DeviceError.deviceNotFound(let id) {
                throw refusal("no device \(id)", exitStatus: 65)
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a device a new token (printed once); its old token stops working once the new one is used.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The device's id (dev_…).") var deviceId: String

        func run() async throws {
            let database = try DevicesCommand.open(store)
            defer { try? database.close() }
            do {
                let (device, token) = try await DeviceDirectory(store: database.store).rotateToken(id: deviceId)
                print("new token for \(device.id) (\(device.role.rawValue), \(device.name))")
                print("token: \(token.value)")
            } catch DeviceError.deviceNotFound(let id) {
                throw refusal("no device \(id)", exitStatus: 65)
            } catch DeviceError.deviceRevoked(let id) {
                throw refusal("\(id) is revoked", exitStatus: 65)
            }
        }
    }
}
