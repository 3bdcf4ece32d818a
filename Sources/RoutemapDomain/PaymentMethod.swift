/// How a bill is paid.
public enum PaymentMethod: String, Sendable, CaseIterable {
    case card
    case cash
}
