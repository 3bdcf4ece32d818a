import RoutemapPostgres
import Testing

@Suite("DatabaseURL: the --database-url text")
struct DatabaseURLTests {
    @Test("user, password and database are percent-decoded once, as a URL's are")
    func decodedOnce() throws {
        let url = try #require(DatabaseURL("postgres://us%40er:x%2541%3Ab@db.internal:5433/my%20shop?sslmode=require"))
        #expect(url.user == "us@er")
        #expect(url.password == "x%41:b")
        #expect(url.database == "my shop")
        #expect(url.host == "db.internal" && url.port == 5433 && url.tlsMode == .require)
        #expect(try #require(DatabaseURL("postgres://routemap:a%25b@localhost/routemap")).password == "a%b")
        #expect(try #require(DatabaseURL("postgres://routemap@localhost/shop%2F2")).database == "shop/2")
        // A `%` that starts no escape is the character itself (a password pasted unencoded).
        #expect(try #require(DatabaseURL("postgres://routemap:a%zzb@localhost/routemap")).password == "a%zzb")
    }

    @Test("defaults: port 5432, the user's database, plain TCP; IPv6 hosts lose their brackets")
    func defaults() throws {
        let url = try #require(DatabaseURL("postgresql://routemap@[::1]"))
        #expect(url.host == "::1" && url.port == 5432 && url.database == "routemap" && url.password == nil && url.tlsMode == .disable)
    }

    @Test("the description never shows the password")
    func description() throws {
        let url = try #require(DatabaseURL("postgres://routemap:S3cret%25@localhost:5432/shop?sslmode=prefer"))
        #expect(url.description == "postgres://routemap:***@localhost:5432/shop?sslmode=prefer")
    }

    @Test("every libpq sslmode is taken, and sslrootcert, which the description keeps")
    func tlsModes() throws {
        for mode in DatabaseURL.TLSMode.allCases {
            #expect(DatabaseURL("postgres://u@h/d?sslmode=\(mode.rawValue)")?.tlsMode == mode)
        }
        let url = try #require(DatabaseURL("postgres://u:p@h/d?sslmode=verify-full&sslrootcert=/etc/ca.pem"))
        #expect(url.tlsMode == .verifyFull && url.rootCertificate == "/etc/ca.pem")
        #expect(url.description == "postgres://u:***@h:5432/d?sslmode=verify-full&sslrootcert=/etc/ca.pem")
    }

    @Test(
        "what is not such a URL is refused",
        arguments: [
            "notaurl", "mysql://u@h/d", "postgres://h/d", "postgres://u@/d", "postgres://u@h:0/d", "postgres://u@h:notaport/d",
            "postgres://u@h/d/e", "postgres://u@h/d?sslmode=verify-none", "postgres://u@h/d?sslcert=c.pem", "postgres://u@h/d?sslrootcert="
        ])
    func refused(text: String) {
        #expect(DatabaseURL(text) == nil)
    }
}
