/// A client's version as sent in `App-Version` ("2.4" or "2.4.1"), compared numerically.
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Major, minor and patch; missing parts are zero.
    public let components: [Int]

    /// Parses one to three dot-separated non-negative integers; anything else is `nil`.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else {
                return nil
            }
            numbers.append(number)
        }
        components = numbers + Array(repeating: 0, count: 3 - numbers.count)
    }

    public init(stringLiteral value: String) {
        guard let version = AppVersion(value) else { preconditionFailure("invalid app version literal \(value)") }
        self = version
    }

    public var description: String { components.map(String.init).joined(separator: ".") }

    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components)
    }
}
