import Foundation
import PostgresNIO

/// Where a PostgreSQL database is, from a URL of the usual form
/// `postgres://user:password@host:port/database?sslmode=require` (`postgresql://` too). The
/// user, password and database are percent-decoded once, as URLs are (`%25` is `%`; a `%`
/// that starts no escape is taken as it is); the port defaults to 5432 and the database to the
/// user's name. `sslmode` is `disable` (the default: plain TCP, for a server on loopback or a
/// private network), `prefer` or `require` (TLS, with the server's certificate checked against
/// the system's trusted roots).
public struct DatabaseURL: Sendable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, prefer, require
    }

    public let host: String
    public let port: Int
    public let user: String
    public let password: String?
    public let database: String
    public let tlsMode: TLSMode

    /// `nil` when `text` is not such a URL (another scheme, no host or user, a bad port or an
    /// unknown `sslmode`).
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql", let host = components.host, !host.isEmpty,
            let user = components.user, !user.isEmpty
        else { return nil }
        var tlsMode = TLSMode.disable
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", let value = item.value, let mode = TLSMode(rawValue: value) else { return nil }
            tlsMode = mode
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { return nil }
        // `URLComponents` decodes user and password once (not again here: `%2541` is `%41`). The
        // path is one segment as written (`%2F` is a `/` in the name), decoded once.
        var path = components.percentEncodedPath
        if path.hasPrefix("/") { path.removeFirst() }
        guard !path.contains("/"), let database = path.removingPercentEncoding else { return nil }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.user = user
        self.password = components.password
        self.database = database.isEmpty ? user : database
        self.tlsMode = tlsMode
    }

    /// The URL without its password, for logs and messages.
    public var description: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
            + (tlsMode == .disable ? "" : "?sslmode=\(tlsMode.rawValue)")
    }

    /// postgres-nio's configuration for a connection to this database.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch tlsMode {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
