extension Duration {
    /// The duration in whole nanoseconds: for clocks and timers that count in them.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in whole milliseconds.
    package var milliseconds: Int64 { nanoseconds / 1_000_000 }
}
