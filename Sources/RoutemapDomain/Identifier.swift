/// Unguessable string ids, such as `bill_4fZq…`.
public enum Identifier {
    /// The characters after the prefix.
    public static let randomLength = 22
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// `prefix` followed by `length` (default 22) base62 characters from the system's secure random generator:
    /// 62^22 ≈ 2^131 possibilities, so ids can be neither guessed nor enumerated.
    public static func make(prefix: String, length: Int = randomLength) -> String {
        var generator = SystemRandomNumberGenerator()
        var characters = [UInt8]()
        characters.reserveCapacity(length)
        for _ in 0..<length {
            // `random(in:using:)` is unbiased: it rejects values that would favour some characters.
            characters.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
        }
        return prefix + String(decoding: characters, as: UTF8.self)
    }
}
