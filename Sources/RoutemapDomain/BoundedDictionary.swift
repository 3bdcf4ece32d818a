/// A dictionary of at most `capacity` entries that makes room by dropping the entry inserted
/// first (updating an entry keeps its place): the caches of the storage and the API hold their
/// entries in it. Not domain logic; it lives here, in the module both of them import.
///
/// Not by dropping `first` of a `Dictionary`: that is the entry in the lowest bucket, so the
/// low buckets empty while the others fill up, and with linear probing every lookup then walks
/// long runs of full buckets comparing keys (measured: 15% of the server's samples under an
/// add-item load, in `String` comparisons).
package struct BoundedDictionary<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package let capacity: Int
    private var entries: [Key: Value] = [:]
    /// Keys in insertion order from `head` on; may still hold keys removed since, which are
    /// skipped when their turn comes and dropped when the array is compacted.
    private var order: [Key] = []
    private var head = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    package var count: Int { entries.count }

    package subscript(key: Key) -> Value? {
        get { entries[key] }
        set {
            if let newValue { insert(newValue, for: key) } else { entries[key] = nil }
        }
    }

    package mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        head = 0
    }

    private mutating func insert(_ value: Value, for key: Key) {
        guard entries.updateValue(value, forKey: key) == nil else { return }
        order.append(key)
        while entries.count > capacity, head < order.count {
            let oldest = order[head]
            head += 1
            if oldest != key { entries[oldest] = nil }
        }
        // Keys removed through the subscript stay in `order` until here: keep it within twice
        // the capacity, in amortized constant time per insert.
        if order.count - head > 2 * capacity || head > capacity {
            order = order[head...].filter { entries[$0] != nil }
            head = 0
        }
    }
}
