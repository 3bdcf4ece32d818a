import CMicroHTTPD

/// An answer that never changes (a cached listing), built once and then sent any number of
/// times without copying its body again.
///
/// Build it once, keep it, and answer `response` from the handler. Each answer is a new
/// libmicrohttpd response (every answer carries its own `X-Request-Id`) that borrows this
/// object's copy of the body and keeps the object alive until libmicrohttpd has sent it, so a
/// `PreparedResponse` may go away at any time. Its status and header fields go through the same
/// checks as any response's when it is queued.
///
/// `@unchecked Sendable`: every stored property is immutable. `bytes` is written once in `init`,
/// only read after (by libmicrohttpd, from any thread), and freed in `deinit`, which runs only
/// when no lent response holds this object any more (`lendBody` retains it until
/// libmicrohttpd's free callback).
public final class PreparedResponse: @unchecked Sendable {
    public let status: HTTPStatus
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// The body's bytes that lent responses read in place.
    private let bytes: UnsafeMutableRawBufferPointer

    public init(_ response: Response) {
        status = response.status
        headers = response.headers
        body = response.body
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(response.body.count, 1), alignment: 1)
        bytes.copyBytes(from: response.body)
    }

    /// A new libmicrohttpd response, without header fields, whose body is this one's bytes, not
    /// copied. It keeps this object alive until libmicrohttpd drops it.
    func lendBody() -> OpaquePointer? {
        let retained = Unmanaged.passRetained(self).toOpaque()
        guard let lent = MHD_create_response_from_buffer_with_free_callback_cls(body.count, bytes.baseAddress, releasePrepared, retained) else {
            Unmanaged<PreparedResponse>.fromOpaque(retained).release()
            return nil
        }
        return lent
    }

    deinit {
        bytes.deallocate()
    }

    /// The response to return from a handler: sent with this object's body.
    public var response: Response {
        Response(self)
    }
}

/// Drops the reference a lent body holds on its `PreparedResponse`.
private func releasePrepared(_ prepared: UnsafeMutableRawPointer?) {
    guard let prepared else { return }
    Unmanaged<PreparedResponse>.fromOpaque(prepared).release()
}
