/// A device change the rules refuse.
public enum DeviceError: Error, Sendable, Equatable {
    /// No device has this id.
    case deviceNotFound(String)
    /// The device was revoked: its token can no longer be rotated.
    case deviceRevoked(String)
}
