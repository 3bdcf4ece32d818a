import Foundation
import RoutemapDomain

/// The transaction of ``FailingPaymentStore``: everything passes through except payments.
struct FailingPaymentTransaction: ForwardingTransaction {
    let base: any POSTransaction
    let failure: FailingPaymentStore.Failure

    var forwarded: any POSTransaction { base }

    func insert(_ payment: Payment) throws {
        try base.insert(payment)
        switch failure {
        case .afterInsert:
            throw FailingPaymentStore.InjectedFailure()
        case .duplicateInsert:
            try base.insert(payment)
        case .afterStock:
            break
        }
    }

    func takeFromStock(_ sold: [String: Int]) throws {
        try base.takeFromStock(sold)
        if failure == .afterStock { throw FailingPaymentStore.InjectedFailure() }
    }
}
