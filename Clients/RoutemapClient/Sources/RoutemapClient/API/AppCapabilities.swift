/// What the app can show, sent with every request as `Navigation-Capabilities`,
/// `Navigation-Screens` and `App-Version` (docs/navigation.md, "Client capabilities"). The
/// server degrades its steps to fit, or answers `unsupported_client`.
public struct AppCapabilities: Sendable, Hashable {
    /// The step operations the app performs.
    public var operations: [StepOperation]
    /// Presentation styles beyond `modal` the app shows (`sheet`, `popover`, `fullScreen`).
    public var presentationStyles: [PresentationStyle]
    /// The native screen types the app implements, containers included; nil: every type.
    public var nativeScreens: [String]?
    /// `major[.minor[.patch]]`; nil: no header.
    public var appVersion: String?

    public init(
        operations: [StepOperation] = StepOperation.knownCases, presentationStyles: [PresentationStyle] = [.sheet, .fullScreen, .popover],
        nativeScreens: [String]? = nil, appVersion: String? = nil
    ) {
        self.operations = operations
        self.presentationStyles = presentationStyles
        self.nativeScreens = nativeScreens
        self.appVersion = appVersion
    }

    /// Every operation and style this client library knows, every native screen.
    public static let everything = AppCapabilities()

    /// The header fields that describe the app.
    public var headerFields: [String: String] {
        var fields = ["Navigation-Capabilities": (operations.map(\.rawValue) + presentationStyles.map(\.rawValue)).joined(separator: ",")]
        if let nativeScreens { fields["Navigation-Screens"] = nativeScreens.joined(separator: ",") }
        if let appVersion { fields["App-Version"] = appVersion }
        return fields
    }
}
