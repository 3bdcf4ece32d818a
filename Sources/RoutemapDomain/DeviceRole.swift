/// What an enrolled device may do: a `till` rings up bills; a `manager` also manages the
/// devices (and the menu). Each role enrolls with its own code.
public enum DeviceRole: String, Sendable, Hashable, CaseIterable {
    case till
    case manager
}
