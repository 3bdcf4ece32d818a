import RoutemapDomain

/// Wraps a real store so that recording a payment fails after writing: to prove `Till.pay` is
/// one transaction.
struct FailingPaymentStore: ForwardingStore {
    enum Failure: Sendable {
        /// Record the payment, then throw ``InjectedFailure``.
        case afterInsert
        /// Record the payment twice: the database refuses the second (UNIQUE bill_id).
        case duplicateInsert
        /// Record the payment, take the sold items off their counts, then throw ``InjectedFailure``.
        case afterStock
    }

    struct InjectedFailure: Error, Equatable {}

    let base: any POSStore
    let failure: Failure

    var forwarded: any POSStore { base }

    func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try await base.write(durability: durability) { transaction in
            try body(FailingPaymentTransaction(base: transaction, failure: failure))
        }
    }
}
