import Foundation

/// Whether `attempt` returns true within five seconds, tried every 50 ms (a throw counts as
/// false): for what a server does once it notices something, with no event to wait on.
public func holdsSoon(_ attempt: () throws -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
        if (try? attempt()) == true { return true }
        guard ContinuousClock.now < deadline else { return false }
        usleep(50_000)
    }
}
