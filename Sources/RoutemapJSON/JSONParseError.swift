/// Why bytes are not acceptable JSON, and where: `offset` is the byte index of the problem.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let offset: Int
    public let reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at byte \(offset)" }
}
