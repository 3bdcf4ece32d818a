import RoutemapDomain

extension PaymentMethod {
    /// The method stored as `text` in payment `paymentId`'s row (or in a sum of payments by
    /// method); text that names no method is a row the code cannot read, ``StorageError/invalidRow(table:id:reason:)``.
    package init(stored text: String, paymentId: String) throws(StorageError) {
        guard let method = PaymentMethod(rawValue: text) else {
            throw StorageError.invalidRow(table: "payments", id: paymentId, reason: "method '\(text)'")
        }
        self = method
    }
}
