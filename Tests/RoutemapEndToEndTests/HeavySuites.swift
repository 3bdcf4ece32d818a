import Testing

/// The long or process-killing suites (kill -9, fuzzing, load) live under this suite, which
/// runs them one at a time so they don't starve each other on a 2-core machine.
@Suite("Long-running suites, one at a time", .serialized)
enum HeavySuites {}
