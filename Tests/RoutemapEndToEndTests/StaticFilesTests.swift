import Foundation
import RoutemapTestSupport
import Testing

/// The web client's files (`Public/`) over HTTP from the real binary: headers, ETag and 304, no
/// token needed, and nothing else readable.
@Suite("Static files, end to end")
struct StaticFilesTests {
    /// Every served path and the file it answers, with its media type.
    static let files: [(path: String, file: String, contentType: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/app.css", "app.css", "text/css; charset=utf-8"),
        ("/app.js", "app.js", "text/javascript; charset=utf-8"),
        ("/icon.svg", "icon.svg", "image/svg+xml"),
    ]

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    private static func contents(of file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: RoutemapProcess.repositoryRoot.appendingPathComponent("Public").appendingPathComponent(file)))
    }

    @Test("each file: 200 without a token, its bytes, media type, ETag, no-cache, nosniff and the CSP")
    func files() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let anonymous = try process.client(authorized: false)
        var tags = Set<String>()
        for (path, file, contentType) in Self.files {
            let response = try anonymous.request("GET", path)
            #expect(response.status == 200, "\(path): \(response.text.prefix(200))")
            let contents = try Self.contents(of: file)
            #expect(response.body == contents, "\(path)")
            #expect(response.header("Content-Type") == contentType, "\(path)")
            #expect(response.header("Cache-Control") == "no-cache", "\(path)")
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path)")
            #expect(response.header("Content-Security-Policy") == Self.contentSecurityPolicy, "\(path)")
            let etag = try #require(response.header("ETag"), "\(path)")
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 18, "\(path): \(etag)")
            tags.insert(etag)
        }
        #expect(tags.count == Self.files.count, "files with different bytes share an ETag")
        // The page's address carries its settings in the query: the same file.
        let withQuery = try anonymous.request("GET", "/?screens=menu&code=abc")
        let index = try Self.contents(of: "index.html")
        #expect(withQuery.status == 200 && withQuery.body == index)
        let head = try anonymous.request("HEAD", "/app.js")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.header("Content-Type") == "text/javascript; charset=utf-8")
    }

    @Test("If-None-Match with the file's ETag (or *, or W/) is 304 with no body; another tag is 200")
    func conditionalRequests() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let client = try process.client(authorized: false)
        for (path, _, _) in Self.files {
            let ok = try client.request("GET", path)
            let etag = try #require(ok.header("ETag"))
            for header in [etag, "*", "W/\(etag)", "\"0000000000000000\", \(etag)"] {
                let response = try client.request("GET", path, headers: [("If-None-Match", header)])
                #expect(response.status == 304, "\(path) If-None-Match: \(header)")
                #expect(response.body.isEmpty)
                #expect(response.header("ETag") == etag)
                #expect(response.header("Cache-Control") == "no-cache")
                #expect(response.header("Content-Type") == nil)
                #expect(response.header("Content-Length") == ok.header("Content-Length"), "\(path): the 200's length or none")
            }
            let stale = try client.request("GET", path, headers: [("If-None-Match", "\"0000000000000000\"")])
            #expect(stale.status == 200 && stale.header("ETag") == etag, "\(path)")
        }
    }

    @Test("nothing but the listed files: traversal and unknown names are 404, token or not, and answer no file")
    func onlyListedFiles() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let anonymous = try process.client(authorized: false)
        let authorized = try process.client()
        let secrets = ["swift-tools-version", "# routemap", "CREATE TABLE", "[core]"]
        for path in [
            "/../Package.swift", "/%2e%2e/Package.swift", "/%2e%2e/", "/%2E%2E%2FPackage.swift", "/Public/../README.md",
            "/Public/index.html", "/index.html", "/app.js/", "//app.js", "/./app.js", "/app.js/..", "/APP.JS", "/nope.js",
            "/Migrations/0001_initial.sql", "/.git/config", "/Public/app.js", "/favicon.ico",
        ] {
            // Outside /v1, where no protected route lives, an unknown path is 404 to anyone.
            let refused = try anonymous.request("GET", path)
            expectProblem(refused, 404, "not_found")
            #expect(refused.header("WWW-Authenticate") == nil)
            let missing = try authorized.request("GET", path)
            expectProblem(missing, 404, "not_found")
            for response in [refused, missing] {
                #expect(!secrets.contains { response.text.contains($0) }, "\(path) answered a file: \(response.text.prefix(200))")
            }
        }
        // The files take GET and HEAD only. Another method is admitted as their GET is (open to
        // all: anyone can learn the page is there), then refused with 405, token or not.
        for client in [anonymous, authorized] {
            let post = try client.request("POST", "/", body: [])
            expectProblem(post, 405, "method_not_allowed")
            #expect(post.header("Allow") == "GET, HEAD")
        }
        // A token is not needed, and a wrong one does not matter either.
        let wrongToken = try anonymous.request("GET", "/app.css", headers: [("Authorization", "Bearer rmt_wrong")])
        #expect(wrongToken.status == 200)
    }

    @Test("serve stops at start-up when a file of the web client is missing, naming it and --public")
    func missingDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-public-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<!doctype html>".utf8).write(to: directory.appendingPathComponent("index.html"))
        let (status, output) = try runRoutemap([
            "serve", "--port", "0", "--db", directory.appendingPathComponent("test.sqlite").path,
            "--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path,
            "--public", directory.path, "--enrollment-code", RoutemapProcess.enrollmentCode,
        ])
        #expect(status != 0)
        #expect(output.contains(directory.appendingPathComponent("app.css").path), "\(output)")
        #expect(output.contains("--public"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("test.sqlite").path), "it opened the database first")
    }
}
