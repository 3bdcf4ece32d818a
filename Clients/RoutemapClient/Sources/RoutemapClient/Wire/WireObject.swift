/// A type that mirrors one object schema of openapi.yaml: its coding keys are the schema's
/// members, which the package's spec test compares with the spec so the two cannot drift.
/// Internal, as its member lists are: they are for that test (`@testable import`), not for apps.
protocol WireObject: Codable, Sendable, Hashable {
    /// The JSON member names this type reads and writes.
    static var memberNames: [String] { get }
}

extension WireObject where Self: WireObjectWithKeys {
    static var memberNames: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// The usual way to be a `WireObject`: a `CodingKeys` enumeration that lists every member.
protocol WireObjectWithKeys: WireObject {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

/// A route's id (`bill`): a letter, then letters, digits, `_`, `-`, `.`.
public typealias RouteID = String
