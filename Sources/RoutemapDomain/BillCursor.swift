import Foundation

/// Where a page of bills, listed newest first, continues: after the bill created at
/// `createdAt` with id `id` (ids break ties between bills created in the same millisecond).
public struct BillCursor: Sendable, Hashable {
    public let createdAt: Date
    public let id: String

    public init(createdAt: Date, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    /// The cursor just past `bill`.
    public init(after bill: Bill) {
        self.init(createdAt: bill.createdAt, id: bill.id)
    }
}

/// One page of a device's bills, newest first.
public struct BillPage: Sendable, Hashable {
    public let bills: [Bill]
    /// The id of the last bill, to pass as the next page's cursor; `nil` on the last page.
    public let nextCursor: String?

    public init(bills: [Bill], nextCursor: String?) {
        self.bills = bills
        self.nextCursor = nextCursor
    }
}
