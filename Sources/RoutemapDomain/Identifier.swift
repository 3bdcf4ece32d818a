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
        // Each call to the generator is a system call: take 8 random bytes at a time. A byte maps
        // to a character only below 248 (4 × 62), so every character is equally likely.
        let unbiasedLimit = UInt8(alphabet.count * (256 / alphabet.count))
        while characters.count < length {
            var bytes = generator.next()
            for _ in 0..<8 where characters.count < length {
                let byte = UInt8(truncatingIfNeeded: bytes)
                bytes >>= 8
                if byte < unbiasedLimit { characters.append(alphabet[Int(byte) % alphabet.count]) }
            }
        }
        return prefix + String(decoding: characters, as: UTF8.self)
    }
}
