/// JSON that is already encoded: written verbatim wherever it appears inside a `JSON` value.
///
/// Made only by encoding a `JSON` value, so its bytes are always valid JSON.
public struct JSONFragment: Sendable, Hashable {
    /// The encoded bytes.
    public let bytes: [UInt8]
    /// The value the bytes encode, kept for reading (tests, payload inspection).
    public let value: JSON

    /// Encodes `value` once.
    public init(_ value: JSON) {
        self.value = value
        self.bytes = value.encoded()
    }

    public static func == (lhs: JSONFragment, rhs: JSONFragment) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
