/// Why the server could not start: a message naming the cause, and the `errno` when the
/// system reported one (`EADDRINUSE` for a port in use, `EACCES` for a privileged port...).
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let errorNumber: Int32?

    public init(_ message: String, errorNumber: Int32? = nil) {
        self.message = message
        self.errorNumber = errorNumber
    }

    public var description: String { message }
}
