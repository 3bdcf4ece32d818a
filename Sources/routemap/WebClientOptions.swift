import ArgumentParser
import Foundation
import RoutemapAPI

/// Where the web client's files are (`serve` answers them at `/`).
struct WebClientOptions: ParsableArguments {
    @Option(
        name: .customLong("public"),
        help: """
            Directory of the web client's files (index.html, app.css, app.js, icon.svg). Env: ROUTEMAP_PUBLIC. \
            Default: <executable>/../share/routemap/Public if present, else ./Public
            """)
    var publicDirectory: String?

    /// The web client's files, read once; throws when the directory or a file is missing.
    func load() throws -> StaticFiles {
        try StaticFiles(
            directory: InstalledDirectory.locate("Public", explicit: publicDirectory, flag: "--public", variable: "ROUTEMAP_PUBLIC"))
    }
}
