/// What a client says it can do, from its `Navigation-Capabilities`, `Navigation-Screens` and
/// `App-Version` headers. A header the client does not send means "everything".
public struct ClientCapabilities: Sendable, Hashable {
    /// The step operations the client performs; `nil` when it did not say (all of them).
    public var operations: Set<StepOperation>?
    /// Presentation styles beyond `modal` the client shows (`sheet`, `popover`, `fullScreen`);
    /// `nil` when it did not say (all of them).
    public var styles: Set<PresentationStyle>?
    /// The native screen types the client implements; `nil` when it did not say (all of them).
    public var nativeScreens: Set<String>?
    public var appVersion: AppVersion?

    /// A client that can do everything: the default when no header is sent.
    public static let everything = ClientCapabilities()

    public init(
        operations: Set<StepOperation>? = nil, styles: Set<PresentationStyle>? = nil, nativeScreens: Set<String>? = nil,
        appVersion: AppVersion? = nil
    ) {
        self.operations = operations
        self.styles = styles
        self.nativeScreens = nativeScreens
        self.appVersion = appVersion
    }

    /// Reads the headers' comma-separated tokens. `Navigation-Capabilities` lists operations and
    /// the styles `sheet`, `popover`, `fullScreen` (a client that presents shows `modal`);
    /// unknown tokens are ignored so newer clients can announce more.
    public init(capabilities: String?, screens: String?, appVersion: String?) throws(CapabilityError) {
        if let capabilities {
            let tokens = ClientCapabilities.tokens(capabilities)
            operations = Set(tokens.compactMap(StepOperation.init(rawValue:)))
            styles = Set(tokens.compactMap(PresentationStyle.init(rawValue:))).union([.modal])
        }
        if let screens { nativeScreens = Set(ClientCapabilities.tokens(screens)) }
        if let appVersion {
            guard let version = AppVersion(appVersion.trimmingSpaces) else { throw .invalidAppVersion(appVersion) }
            self.appVersion = version
        }
    }

    public func performs(_ operation: StepOperation) -> Bool { operations?.contains(operation) ?? true }

    /// `operation`, or what replaces it for a client without it (`StepOperation.degraded`).
    public func operation(_ operation: StepOperation) -> StepOperation {
        performs(operation) ? operation : operation.degraded
    }

    public func shows(_ style: PresentationStyle) -> Bool { styles?.contains(style) ?? true }

    /// Whether the client has `route`'s native screen, at a version new enough.
    public func drawsNatively(_ route: Route) -> Bool {
        if let nativeScreens, !nativeScreens.contains(route.screenType) { return false }
        if let minimum = route.minimumAppVersion, let appVersion, appVersion < minimum { return false }
        return true
    }

    private static func tokens(_ header: String) -> [String] {
        header.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }
}

/// A capability header the server cannot read.
public enum CapabilityError: Error, Sendable, Hashable {
    /// `App-Version` is not one to three dot-separated numbers.
    case invalidAppVersion(String)
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
