import Foundation
import RoutemapDomain

/// Values shared by the domain tests.
enum Fixtures {
    static let rate875 = TaxRate(basisPoints: 875)!
    static let createdAt = Date(timeIntervalSince1970: 1_700_000_000)
    /// The device the use-case tests act as (the domain does not check that it is enrolled).
    static let device = "dev_A"
    /// Another device, which must not see or change `device`'s bills.
    static let otherDevice = "dev_B"

    static let latte = item("latte", price: 475)
    static let croissant = item("croissant", price: 350, category: "bakery")
    static let soldOut = item("pumpkin-spice-latte", price: 575, available: false)

    static let menu = [latte, croissant, soldOut, item("espresso", price: 300)]

    static func item(
        _ id: String, price: Int64, category: String = "coffee", currency: Currency = .usd, available: Bool = true, stock: Int? = nil
    ) -> MenuItem {
        MenuItem(id: id, name: id.capitalized, category: category, priceMinor: price, currency: currency, available: available, stock: stock)
    }

    /// A new open bill at 8.75 % unless told otherwise.
    static func bill(taxRate: TaxRate = rate875, currency: Currency = .usd) -> Bill {
        try! Bill(id: "bill_test", currency: currency, taxRate: taxRate, createdAt: createdAt)
    }

    /// An open bill holding `items` (each quantity 1, in order).
    static func bill(with items: [MenuItem], taxRate: TaxRate = rate875) throws -> Bill {
        var bill = bill(taxRate: taxRate)
        for (index, item) in items.enumerated() {
            try bill.add(item, quantity: 1, newLineId: "line_\(index)")
        }
        return bill
    }

    /// A checked-out bill holding `items`.
    static func checkedOutBill(with items: [MenuItem] = [latte]) throws -> Bill {
        var bill = try bill(with: items)
        try bill.checkout()
        return bill
    }

    /// A bill holding `items`, checked out and paid the way the till pays: its due amount
    /// checked (``Bill/check(_:)``), then recorded as one card payment.
    static func paidBill(with items: [MenuItem] = [latte]) throws -> Bill {
        var bill = try checkedOutBill(with: items)
        let checked = try bill.check(PaymentRequest(method: .card, amountMinor: bill.dueMinor))
        try bill.record(checked.payment(id: "pay_test", receiptNumber: 1, createdAt: createdAt, deviceId: device))
        return bill
    }
}
