/// HTTP header fields in order, names compared case-insensitively (ASCII), repeats allowed.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Field = (name: String, value: String)

    private var fields: [Field]

    public init() {
        fields = []
    }

    public init(_ fields: some Sequence<(String, String)>) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Fields as they are, in order (no copy: the server's request heads).
    init(fields: [Field]) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field `name`, or `nil` when absent.
    public subscript(_ name: String) -> String? {
        fields.first { HTTPHeaders.sameName($0.name, name) }?.value
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { HTTPHeaders.sameName($0.name, name) }.map(\.value)
    }

    /// How many fields are named `name` (without collecting their values: for checks made on
    /// every request).
    public func count(of name: String) -> Int {
        fields.count { HTTPHeaders.sameName($0.name, name) }
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Sets the field `name` to `value` alone: replaces the first of that name (in place) and
    /// drops the rest, or appends it when absent.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let index = fields.firstIndex(where: { HTTPHeaders.sameName($0.name, name) }) else {
            fields.append((name: name, value: value))
            return
        }
        fields[index] = (name: name, value: value)
        var position = fields.index(after: index)
        while position < fields.endIndex {
            if HTTPHeaders.sameName(fields[position].name, name) {
                fields.remove(at: position)
            } else {
                position = fields.index(after: position)
            }
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { HTTPHeaders.sameName($0.name, name) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive equality, as header names are tokens. Compares the UTF-8 bytes
    /// in place when both strings have them contiguous (native strings do): every header
    /// lookup runs this once per field.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        let inPlace = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                for index in left.indices where left[index] != right[index] {
                    guard lowercase(left[index]) == lowercase(right[index]) else { return false }
                }
                return true
            }
        }
        if let inPlace = inPlace ?? nil { return inPlace }
        for (a, b) in zip(left, right) where a != b {
            guard HTTPHeaders.lowercase(a) == HTTPHeaders.lowercase(b) else { return false }
        }
        return true
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
