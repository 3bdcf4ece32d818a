import CMicroHTTPD

/// An answer that never changes (a cached listing), handed to libmicrohttpd once and then sent
/// any number of times: no copy of the body and no header fields added per request.
///
/// Build it once, keep it, and answer `response` from the handler. libmicrohttpd keeps its
/// own reference while it sends it, so a `PreparedResponse` may go away at any time.
/// Requests answered while the server shuts down (which must carry `Connection: close`) and
/// responses changed after being taken from here are sent the ordinary way, as are prepared
/// responses libmicrohttpd could not take (an invalid status, a header field it refuses).
///
/// `@unchecked Sendable`: the stored properties are immutable, and `handle` is only read.
/// The libmicrohttpd response it points to is complete (body and header fields) before `init`
/// returns and is never changed after: `MHD_queue_response` from any thread only counts a
/// reference, under the response's own mutex (libmicrohttpd documents a response as "used any
/// number of times"). `deinit` drops this object's reference, when nothing can queue it any
/// more; connections still sending it hold theirs. `bytes` outlive the handle: libmicrohttpd
/// reads them in place (`MHD_RESPMEM_PERSISTENT`) and they are freed only when its last
/// reference is dropped (`MHD_create_response_from_buffer_with_free_callback`).
public final class PreparedResponse: @unchecked Sendable {
    public let status: HTTPStatus
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// libmicrohttpd's response, or `nil` when it could not take this one.
    let handle: OpaquePointer?
    /// `handle`'s copy of the body, freed with its last reference.
    private let bytes: UnsafeMutableRawPointer?

    /// Prepares `response` (without any `Connection: close` the server adds at shut-down).
    public init(_ response: Response) {
        status = response.status
        headers = response.headers
        body = response.body
        (handle, bytes) = PreparedResponse.makeHandle(status: response.status, headers: response.headers, body: response.body)
    }

    /// A new libmicrohttpd response, without header fields, whose body is this one's bytes,
    /// not copied: for an answer that needs a header field of its own (`X-Request-Id`). It keeps
    /// this object, and so `handle` and its bytes, alive until libmicrohttpd drops it.
    func lendBody() -> OpaquePointer? {
        guard let bytes else { return nil }
        let retained = Unmanaged.passRetained(self).toOpaque()
        guard let lent = MHD_create_response_from_buffer_with_free_callback_cls(body.count, bytes, releasePrepared, retained) else {
            Unmanaged<PreparedResponse>.fromOpaque(retained).release()
            return nil
        }
        return lent
    }

    deinit {
        if let handle { MHD_destroy_response(handle) }
    }

    /// The response to return from a handler: sent through libmicrohttpd's prepared copy.
    public var response: Response {
        Response(self)
    }

    /// A libmicrohttpd response over its own copy of `body`, with every header field; `nil`
    /// when the status is not a three-digit one or libmicrohttpd refuses a field.
    private static func makeHandle(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8]) -> (OpaquePointer?, UnsafeMutableRawPointer?) {
        guard (100...999).contains(status.code) else { return (nil, nil) }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
        bytes.copyBytes(from: body)
        guard let handle = MHD_create_response_from_buffer_with_free_callback(body.count, bytes.baseAddress, freeBytes) else {
            bytes.deallocate()
            return (nil, nil)
        }
        for (name, value) in headers where MHD_add_response_header(handle, name, value) != CMHD_YES {
            MHD_destroy_response(handle)
            return (nil, nil)
        }
        return (handle, bytes.baseAddress)
    }
}

/// Drops the reference a lent body holds on its `PreparedResponse`.
private func releasePrepared(_ prepared: UnsafeMutableRawPointer?) {
    guard let prepared else { return }
    Unmanaged<PreparedResponse>.fromOpaque(prepared).release()
}

/// Frees a prepared body's bytes once libmicrohttpd drops its last reference to the response.
private func freeBytes(_ bytes: UnsafeMutableRawPointer?) {
    bytes?.deallocate()
}
