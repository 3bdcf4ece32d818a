import RoutemapHTTP
import RoutemapNavigation

extension Request {
    /// What the calling client can do, from its `Navigation-Capabilities`, `Navigation-Screens`
    /// and `App-Version` headers (docs/navigation.md, "Client capabilities").
    package func clientCapabilities() throws -> ClientCapabilities {
        do {
            return try ClientCapabilities(
                capabilities: headers["Navigation-Capabilities"], screens: headers["Navigation-Screens"],
                appVersion: headers["App-Version"])
        } catch .invalidAppVersion(let text) {
            throw Problem.invalidField("App-Version", "App-Version '\(text)' is not major[.minor[.patch]].")
        }
    }
}
