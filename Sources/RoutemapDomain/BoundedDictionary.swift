/// A dictionary of at most `capacity` entries that makes room by dropping the entry inserted
/// first (updating an entry keeps its place): the caches of the storage and the API hold their
/// entries in it. Not domain logic; it lives here, in the module both of them import.
///
/// Not by dropping `first` of a `Dictionary`: that is the entry in the lowest bucket, so the
/// low buckets empty while the others fill up, and with linear probing every lookup then walks
/// long runs of full buckets comparing keys (measured: 15% of the server's samples under an
/// add-item load, in `String` comparisons).
///
/// Public and `@inlinable` for one reason: so that the modules holding caches in it specialize
/// it. As `package` (with or without `@inlinable`, or cross-module optimization) its lookups ran
/// unspecialized, looking tuple metadata up at run time: the bill cache's getter was 4.4% of a
/// launch load's samples, 0.9% once specialized.
public struct BoundedDictionary<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public let capacity: Int
    /// Each value with the number of its insertion, which tells its place in `order`.
    @usableFromInline var entries: [Key: (value: Value, insertion: UInt64)] = [:]
    /// Insertions from `head` on, oldest first. An insertion whose key was removed, or removed
    /// and inserted again since, no longer matches `entries`: it is skipped when its turn
    /// comes and dropped when the array is compacted.
    @usableFromInline var order: [(key: Key, insertion: UInt64)] = []
    @usableFromInline var head = 0
    @usableFromInline var insertions: UInt64 = 0

    @inlinable public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    @inlinable public var count: Int { entries.count }

    @inlinable public subscript(key: Key) -> Value? {
        get { entries[key]?.value }
        set {
            if let newValue { insert(newValue, for: key) } else { entries[key] = nil }
        }
    }

    @inlinable public mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        head = 0
    }

    @usableFromInline func isCurrent(_ insertion: (key: Key, insertion: UInt64)) -> Bool {
        entries[insertion.key]?.insertion == insertion.insertion
    }

    @usableFromInline mutating func insert(_ value: Value, for key: Key) {
        if let existing = entries[key] {
            entries[key] = (value, existing.insertion)
            return
        }
        insertions &+= 1
        entries[key] = (value, insertions)
        order.append((key, insertions))
        while entries.count > capacity, head < order.count {
            let oldest = order[head]
            head += 1
            if isCurrent(oldest) { entries[oldest.key] = nil }
        }
        // Stale insertions stay in `order` until here: compacting keeps it within twice the
        // capacity (after it, `order` holds exactly the entries), in amortized constant time.
        if order.count - head > 2 * capacity || head > capacity {
            order = order[head...].filter(isCurrent)
            head = 0
        }
    }
}
