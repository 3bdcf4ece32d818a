import Foundation
import Logging
import RoutemapDomain
@testable import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// Each `sslmode` against the test server with TLS turned on, under a self-signed certificate
/// for `localhost` that no system trusts: what is encrypted, and what is refused. The server
/// keeps taking plain connections meanwhile (the other tests' URLs ask for none).
@Suite(
    "TLS to PostgreSQL as sslmode says", .serialized,
    .enabled(if: TestDatabase.onPostgres && ProcessInfo.processInfo.environment["PGDATA"] != nil, "turns TLS on in the test server"))
struct PostgresTLSTests {
    /// Whether a store opened with `query` on `url` (its host replaced by `host`) is encrypted;
    /// `nil` when it cannot connect.
    private func encrypted(_ url: String, host: String = "127.0.0.1", _ query: String) throws -> Bool? {
        var components = try #require(URLComponents(string: url))
        components.host = host
        let text = try #require(components.string) + "?" + query
        let store: PostgresStore
        do {
            store = try PostgresStore(url: #require(DatabaseURL(text)), migrations: StorageFixtures.postgresMigrations(), connections: 1)
        } catch is StoreUnavailable {
            return nil
        }
        defer { store.close() }
        return try store.inspecting("its TLS") { try $0.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first?.decode(Bool.self) }
    }

    @Test("disable is plain; allow, prefer and require encrypt without checking the certificate; verify-ca and verify-full check it, against sslrootcert")
    func modes() throws {
        let server = try #require(TestPostgres.serverURL)
        let data = try #require(ProcessInfo.processInfo.environment["PGDATA"])
        let url = try TestPostgres.newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        // TLS not offered yet: prefer goes on in plain TCP, require refuses.
        #expect(try encrypted(url, "sslmode=prefer") == false)
        #expect(try encrypted(url, "sslmode=require") == nil)

        let certificate = data + "/routemap-test-tls.crt", key = data + "/routemap-test-tls.key"
        #expect(try TestPostgres.spawnAndWait([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-keyout", key, "-out", certificate, "-days", "2",
        ]) == 0)
        // The server runs as `postgres` when the tests run as root; its key must be its own, 0600.
        _ = try? TestPostgres.spawnAndWait(["chown", "postgres", key, certificate])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        for setting in ["ssl_cert_file = '\(certificate)'", "ssl_key_file = '\(key)'", "ssl = on"] {
            try TestPostgres.psql(server, "ALTER SYSTEM SET \(setting)")
        }
        defer {
            for setting in ["ssl", "ssl_cert_file", "ssl_key_file"] { _ = try? TestPostgres.psql(server, "ALTER SYSTEM RESET \(setting)") }
            _ = try? TestPostgres.psql(server, "SELECT pg_reload_conf()")
        }
        try TestPostgres.psql(server, "SELECT pg_reload_conf()")
        try #require(holdsSoon { try TestPostgres.psql(server, "SHOW ssl") == "on" })

        #expect(try encrypted(url, "sslmode=disable") == false)
        // libpq's prefer (and allow): TLS when offered, whatever the certificate.
        #expect(try encrypted(url, "sslmode=prefer") == true)
        #expect(try encrypted(url, "sslmode=allow") == true)
        #expect(try encrypted(url, "sslmode=require") == true)
        // Checked: refused without the certificate's authority, taken with it.
        #expect(try encrypted(url, "sslmode=verify-ca") == nil)
        #expect(try encrypted(url, "sslmode=verify-full") == nil)
        #expect(try encrypted(url, "sslmode=require&sslrootcert=\(certificate)") == true)
        #expect(try encrypted(url, "sslmode=verify-ca&sslrootcert=\(certificate)") == true)
        #expect(try encrypted(url, host: "localhost", "sslmode=verify-full&sslrootcert=\(certificate)") == true)
    }
}
