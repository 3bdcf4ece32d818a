import ArgumentParser
import Foundation
import RoutemapAPI

/// Where the web client's files are (`serve` answers them at `/`).
struct WebClientOptions: ParsableArguments {
    @Option(name: Settings.publicDirectory.name, help: Settings.publicDirectory.help)
    var publicDirectory: String?

    /// The web client's files, read once; throws when the directory or a file is missing.
    func load() throws -> StaticFiles {
        try StaticFiles(
            directory: InstalledDirectory.locate("Public", setting: Settings.publicDirectory, flagValue: publicDirectory))
    }
}
