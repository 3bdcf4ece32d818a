/// A bill's discount: one per bill, given, replaced or removed while the bill is open.
extension Till {
    /// Gives an open bill `discount`, replacing any it had, or removes its discount (`nil`).
    ///
    /// A till reaches only the bills it holds (another device's is `billNotFound`) and may give
    /// a discount up to ``tillDiscountLimitBasisPoints`` of the bill's subtotal as it is now
    /// (an amount counts as its share of it); past that it is `discountNeedsManager`. A manager
    /// may give any discount to any device's open bill. Removing a discount needs no limit: it
    /// only takes away money off the bill. Throws `billNotFound`, `billNotOpen` (a checked-out
    /// bill's checkout is cancelled first) or `discountNeedsManager`; the last two are recorded
    /// under the key, as other conflicts with the bill's state are.
    public func setDiscount(billId: String, caller: BillCaller, _ discount: BillDiscount?, idempotency: IdempotencyKey<Bill>?)
        async throws -> IdempotentOutcome<Bill>
    {
        let limit = tillDiscountLimitBasisPoints
        return try await write(device: caller.deviceId, durability: .normal, idempotency: idempotency) { transaction in
            let bill = try reachableBill(billId, caller: caller, in: transaction)
            return try change(bill, in: transaction) { bill, _ in
                try bill.setDiscount(discount, tillLimitBasisPoints: caller.role == .manager ? nil : limit)
            }
        }
    }
}
