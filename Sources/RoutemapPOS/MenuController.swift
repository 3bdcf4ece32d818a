import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP

/// `GET /v1/menu/items`: the current menu, encoded once per version, with a strong `ETag` and
/// `304` for `If-None-Match`.
struct MenuController {
    let menu: LiveMenu

    func register(on router: inout Router<APIContext>) {
        router.device(.GET, "/v1/menu/items", immediately: listItems)
        router.device(.GET, "/v1/menu/categories", immediately: listCategories)
    }

    /// `GET /v1/menu/categories`: the categories on the menu, in order, with their names.
    @Sendable func listCategories(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let listing = try menu.confirmed().categoryListing
        if let ifNoneMatch = request.headers["If-None-Match"], EntityTag.ifNoneMatch(ifNoneMatch, matches: listing.etag) {
            return .notModified(listing.ok, headers: Self.headers(etag: listing.etag))
        }
        return listing.ok.response
    }

    @Sendable func listItems(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let listing = try menu.confirmed().listing(category: request.query["category"])
        if let ifNoneMatch = request.headers["If-None-Match"], EntityTag.ifNoneMatch(ifNoneMatch, matches: listing.etag) {
            return .notModified(listing.ok, headers: Self.headers(etag: listing.etag))
        }
        return listing.ok.response
    }

    /// The header fields of every answer, 200 or 304 (the 200 adds `Content-Type`).
    static func headers(etag: String) -> HTTPHeaders {
        ["ETag": etag, "Cache-Control": "no-cache"]
    }
}
