import Foundation
import RoutemapHTTP

/// The web client's files (the repository's `Public/`), read once at start-up and kept in memory.
///
/// Only the files in `catalog` exist for the server: each is read when the server starts and
/// answered from a prepared response, so no request reaches the file system (no path can lead
/// out of the directory, and the static routes cost the API no I/O).
public struct StaticFiles: Sendable {
    /// A file of the web client: the path it is served at, its name in the directory, its media type.
    struct Entry: Sendable {
        let path: String
        let file: String
        let contentType: String
    }

    /// Every file served, and where.
    static let catalog: [Entry] = [
        Entry(path: "/", file: "index.html", contentType: "text/html; charset=utf-8"),
        Entry(path: "/app.css", file: "app.css", contentType: "text/css; charset=utf-8"),
        Entry(path: "/app.js", file: "app.js", contentType: "text/javascript; charset=utf-8"),
        Entry(path: "/icon.svg", file: "icon.svg", contentType: "image/svg+xml"),
    ]

    /// One file's answers, prepared once: 200 with the body, 304 without it (lending the 200's
    /// for its length).
    struct File: Sendable {
        let path: String
        let etag: String
        let ok: PreparedResponse
        let notModified: Response
    }

    let files: [File]

    /// No web client: the server answers the API only.
    public static let none = StaticFiles(files: [])

    private init(files: [File]) {
        self.files = files
    }

    /// Reads every file of `catalog` from `directory`; throws `StaticFilesError` naming the first
    /// one that cannot be read, so a broken installation stops at start-up.
    public init(directory: URL) throws {
        files = try Self.catalog.map { entry in
            let url = directory.appendingPathComponent(entry.file)
            let body: [UInt8]
            do {
                body = Array(try Data(contentsOf: url))
            } catch {
                throw StaticFilesError(path: url.path, underlying: error)
            }
            let etag = EntityTag.strong(for: body)
            let headers = Self.headers(etag: etag)
            var okHeaders = headers
            okHeaders.add(name: "Content-Type", value: entry.contentType)
            let ok = PreparedResponse(Response(headers: okHeaders, body: body))
            return File(path: entry.path, etag: etag, ok: ok, notModified: .notModified(ok, headers: headers))
        }
    }

    /// The header fields of every answer, 200 or 304 (the 200 adds `Content-Type`): revalidate
    /// before each use (the file names do not change with their contents), never sniff the type,
    /// and only the page's own script and style, with no inline ones.
    static func headers(etag: String) -> HTTPHeaders {
        [
            "ETag": etag,
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": contentSecurityPolicy,
            "Referrer-Policy": "no-referrer",
        ]
    }

    /// Everything from this server only; no inline script or style, no framing, no plugins.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

/// A file of the web client could not be read at start-up.
public struct StaticFilesError: Error, CustomStringConvertible {
    public let path: String
    public let underlying: any Error

    public var description: String {
        "cannot read the web client's file \(path): \(underlying.localizedDescription) (pass --public or set ROUTEMAP_PUBLIC)"
    }
}

/// `GET /` and the web client's other files (`StaticFiles`), with a strong `ETag` and `304` for
/// `If-None-Match`. They are open: a browser loads the page before it has a token.
struct StaticFilesController {
    let files: StaticFiles

    func register(on router: inout Router<APIContext>) {
        for file in files.files {
            router.open(.GET, file.path, immediately: { request in
                if let ifNoneMatch = request.headers["If-None-Match"], EntityTag.ifNoneMatch(ifNoneMatch, matches: file.etag) {
                    return file.notModified
                }
                return file.ok.response
            })
        }
    }
}
