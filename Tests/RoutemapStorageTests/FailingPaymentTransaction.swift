import RoutemapDomain

/// The transaction of ``FailingPaymentStore``: everything passes through except payments.
struct FailingPaymentTransaction: POSTransaction {
    let base: any POSTransaction
    let failure: FailingPaymentStore.Failure

    func menuItem(id: String) throws -> MenuItem? { try base.menuItem(id: id) }
    func bill(id: String) throws -> Bill? { try base.bill(id: id) }
    func newestUnpaidBill() throws -> Bill? { try base.newestUnpaidBill() }
    func insert(_ bill: Bill) throws { try base.insert(bill) }
    func update(_ bill: Bill) throws { try base.update(bill) }

    func insert(_ payment: Payment) throws {
        try base.insert(payment)
        switch failure {
        case .afterInsert:
            throw FailingPaymentStore.InjectedFailure()
        case .duplicateInsert:
            try base.insert(payment)
        }
    }
}
