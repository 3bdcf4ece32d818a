import Foundation
import PostgresNIO

/// Where a PostgreSQL database is, from a URL of the usual form
/// `postgres://user:password@host:port/database?sslmode=require` (`postgresql://` too). The
/// user, password and database are percent-decoded once, as URLs are (`%25` is `%`; a `%`
/// that starts no escape is taken as it is); the port defaults to 5432 and the database to the
/// user's name. `sslmode` means what it means to libpq, as far as postgres-nio allows:
///
/// - `disable` (the default): plain TCP, for a server on loopback or a private network.
/// - `allow` and `prefer`: TLS if the server offers it, its certificate not checked, else plain
///   TCP. (libpq's `allow` tries plain TCP first; here both ask for TLS first. Neither falls back
///   to plain TCP after a TLS handshake that failed, which libpq's `prefer` does.)
/// - `require`: TLS or nothing, the certificate not checked; with `sslrootcert` as `verify-ca`.
/// - `verify-ca`: TLS, the certificate's chain checked against `sslrootcert` (a PEM file), else
///   the system's trusted roots; not its name.
/// - `verify-full`: as `verify-ca`, and the certificate must name the URL's host.
///
/// Only `verify-full` stops a man in the middle: the others encrypt, but whoever answers in the
/// server's place gets the password and the data.
public struct DatabaseURL: Sendable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public let host: String
    public let port: Int
    public let user: String
    public let password: String?
    public let database: String
    public let tlsMode: TLSMode
    /// `sslrootcert`: the PEM file of the certificate authorities a server's certificate is
    /// checked against (`verify-ca`, `verify-full`, and `require` as libpq does), instead of the
    /// system's.
    public let rootCertificate: String?

    /// `nil` when `text` is not such a URL (another scheme, no host or user, a bad port or an
    /// unknown `sslmode`).
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql", let host = components.host, !host.isEmpty,
            let user = components.user, !user.isEmpty
        else { return nil }
        var tlsMode = TLSMode.disable
        var rootCertificate: String?
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", let value?):
                guard let mode = TLSMode(rawValue: value) else { return nil }
                tlsMode = mode
            case ("sslrootcert", let value?) where !value.isEmpty:
                rootCertificate = value
            default:
                return nil
            }
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
        self.rootCertificate = rootCertificate
    }

    /// The URL without its password, for logs and messages.
    public var description: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
            + (tlsMode == .disable ? "" : "?sslmode=\(tlsMode.rawValue)")
            + (rootCertificate.map { "\(tlsMode == .disable ? "?" : "&")sslrootcert=\($0)" } ?? "")
    }

    /// postgres-nio's configuration for a connection to this database.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch tlsMode {
        case .disable: tls = .disable
        case .allow, .prefer: tls = .prefer(try context(verifying: .none))
        case .require: tls = .require(try context(verifying: rootCertificate == nil ? .none : .noHostnameVerification))
        case .verifyCA: tls = .require(try context(verifying: .noHostnameVerification))
        case .verifyFull: tls = .require(try context(verifying: .fullVerification))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// A TLS client context that checks the server's certificate as `verification` says,
    /// against `sslrootcert` when given.
    private func context(verifying verification: CertificateVerification) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = verification
        if let rootCertificate { configuration.trustRoots = .file(rootCertificate) }
        return try NIOSSLContext(configuration: configuration)
    }
}
