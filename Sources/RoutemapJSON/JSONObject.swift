/// A JSON object whose members keep the order they were added in. Keys are unique.
///
/// The members are stored as one array of pairs, in order: building an object (the hot path of
/// every response) costs one allocation and no hashing. Looking a key up scans the members,
/// which beats hashing for the handful of members routemap's objects have; an object that grows
/// past `indexThreshold` members (only parsed request bodies can) also keeps a hash index, so
/// lookups and duplicate checks stay O(1) however many members a client sends.
public struct JSONObject: Sendable {
    public typealias Member = (key: String, value: JSON)

    /// The members in order. Unlabelled, so a dictionary literal's array is adopted as is.
    private(set) var members: [(String, JSON)]
    /// The position of each key, kept only once the object has more than `indexThreshold` members.
    private var positions: [String: Int]?

    /// Up to this many members a lookup scans them; above it, the object keeps a hash index.
    static let indexThreshold = 16

    public init() {
        members = []
        positions = nil
    }

    /// Builds an object from members; a repeated key keeps its first position and its last value.
    public init(_ members: some Sequence<(String, JSON)>) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// Builds an object from members whose keys are distinct, in order, without looking for
    /// repeats: the cheap way to build a response object. Repeated keys are a programming error,
    /// caught by an assertion in debug builds (as a `Dictionary` literal traps on them).
    public init(uniqueKeysWithValues members: [(String, JSON)]) {
        self.members = members
        positions = nil
        if members.count > Self.indexThreshold {
            rebuildIndex()
        }
        assert(hasDistinctKeys, "JSONObject built with repeated keys: \(members.map(\.0))")
    }

    /// The member named `key`. Setting `nil` removes it; setting a new key appends it.
    public subscript(key: String) -> JSON? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].1
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].1 = newValue
                } else {
                    members.remove(at: position)
                    if positions != nil { rebuildIndex() }
                }
            } else if let newValue {
                appendNew(key, newValue)
            }
        }
    }

    /// Appends a member whose key the object does not have yet, without searching for it: the
    /// cheap way to add an optional member to a response object. A key already present is a
    /// programming error, caught by an assertion in debug builds; use the subscript to replace.
    public mutating func append(_ key: String, _ value: JSON) {
        assert(position(of: key) == nil, "JSONObject.append of the key \"\(key)\", which the object already has")
        appendNew(key, value)
    }

    /// Whether the object has a member named `key`.
    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    public var keys: [String] { members.map(\.0) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    // MARK: Storage

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.0 == key }
    }

    private mutating func appendNew(_ key: String, _ value: JSON) {
        members.append((key, value))
        if positions != nil {
            positions![key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            positions = nil
            return
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { index[member.0] = position }
        positions = index
    }

    private var hasDistinctKeys: Bool {
        Set(members.map(\.0)).count == members.count
    }
}

extension JSONObject: Hashable {
    /// Equal when the same keys hold equal values in the same order (the order is part of the
    /// encoding, so equal objects encode to the same bytes).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (left, right) in zip(lhs.members, rhs.members) where left.0 != right.0 || left.1 != right.1 {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for (key, value) in members {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> some IteratorProtocol<Member> {
        MemberIterator(base: members.makeIterator())
    }

    /// The members in order, labelled.
    private struct MemberIterator: IteratorProtocol {
        var base: IndexingIterator<[(String, JSON)]>

        mutating func next() -> Member? {
            guard let (key, value) = base.next() else { return nil }
            return (key, value)
        }
    }

    public var underestimatedCount: Int { members.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Keys must be distinct, as in a `Dictionary` literal; debug builds check.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(uniqueKeysWithValues: elements)
    }
}
