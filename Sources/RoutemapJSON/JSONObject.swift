/// A JSON object whose members keep the order they were added in. Keys are unique.
public struct JSONObject: Sendable, Hashable {
    public typealias Member = (key: String, value: JSON)

    private var keysInOrder: [String]
    private var values: [String: JSON]

    public init() {
        keysInOrder = []
        values = [:]
    }

    /// Builds an object from members; a repeated key keeps its first position and its last value.
    public init(_ members: some Sequence<(String, JSON)>) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// The member named `key`. Setting `nil` removes it; setting a new key appends it.
    public subscript(key: String) -> JSON? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keysInOrder.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keysInOrder.removeAll { $0 == key }
            }
        }
    }

    public var keys: [String] { keysInOrder }
    public var count: Int { keysInOrder.count }
    public var isEmpty: Bool { keysInOrder.isEmpty }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.keysInOrder == rhs.keysInOrder && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keysInOrder)
        for key in keysInOrder { hasher.combine(values[key]) }
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> some IteratorProtocol<Member> {
        var index = keysInOrder.startIndex
        return AnyIterator { [keysInOrder, values] () -> Member? in
            guard index < keysInOrder.endIndex else { return nil }
            let key = keysInOrder[index]
            index += 1
            return (key, values[key]!)
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }
}
