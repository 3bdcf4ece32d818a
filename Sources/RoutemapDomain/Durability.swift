/// How hard a write transaction's commit is pushed to disk.
public enum Durability: Sendable, Hashable {
    /// Survives a crash of the process; the last commits may be lost on power loss. Bill edits:
    /// a lost edit is visible on screen and redone, and this commits several times faster.
    case normal
    /// Survives power loss once acknowledged (`synchronous = FULL`): payments, refunds, and enrollment.
    case full
}
