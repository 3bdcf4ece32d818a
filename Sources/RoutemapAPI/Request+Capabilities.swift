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

    /// The client's capabilities, once `navigator` has checked they cover what the answer will
    /// hold (`routes` shown, `operations` performed): a client that could not follow it gets
    /// 422 before anything changes.
    package func clientCapabilities<Context>(
        verifiedBy navigator: Navigator<Context>, canShow routes: [RouteID], performing operations: Set<StepOperation>
    ) throws -> ClientCapabilities {
        let client = try clientCapabilities()
        try navigator.verify(client, canShow: routes, performing: operations)
        return client
    }
}
