import RoutemapHTTP

/// `GET /v1/menu/items`: the cached menu, with a strong `ETag` and `304` for `If-None-Match`.
struct MenuController {
    let menu: MenuCatalog

    func register(on router: inout Router) {
        router.get("/v1/menu/items", use: listItems)
    }

    @Sendable func listItems(_ request: Request) throws -> Response {
        let listing = menu.listing(category: request.query["category"])
        var headers: HTTPHeaders = ["ETag": listing.etag, "Cache-Control": "no-cache"]
        if let ifNoneMatch = request.headers["If-None-Match"], EntityTag.ifNoneMatch(ifNoneMatch, matches: listing.etag) {
            return Response(status: .notModified, headers: headers, body: [])
        }
        headers.add(name: "Content-Type", value: "application/json")
        return Response(status: .ok, headers: headers, body: listing.body)
    }
}
