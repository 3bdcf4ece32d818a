import Crypto

/// A device's bearer token: `rmt_` and 43 random base62 characters (about 256 bits). It is shown
/// once, at enrollment; the store keeps only its SHA-256 digest, so a copy of the database
/// does not let anyone act as a device.
public struct DeviceToken: Sendable, Hashable {
    public let value: String

    /// A new random token.
    public static func generate() -> DeviceToken {
        DeviceToken(value: Identifier.make(prefix: "rmt_", length: 43))
    }

    public init(value: String) { self.value = value }

    /// What the store keeps and looks tokens up by: the SHA-256 digest of the token's bytes.
    public var digest: [UInt8] { Array(SHA256.hash(data: Array(value.utf8))) }
}
