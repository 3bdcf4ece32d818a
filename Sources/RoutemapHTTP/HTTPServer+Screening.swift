import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Request targets cut before libmicrohttpd parses them, where it would fail without answering.

extension HTTPServer {
    /// Connection memory libmicrohttpd 0.9.75 spends on each query argument: one header
    /// record (56 bytes on 64-bit) with the pool's alignment.
    static let memoryPerQueryArgument = 64
    /// Connection memory left for the rest of the request line beside a long target.
    static let memoryHeadroom = 4096
    /// Connection memory left for libmicrohttpd's own records beside the query's.
    static let recordHeadroom = 1024

    /// Refuses, with 414 `uri_too_long`, a request target whose query has more arguments than
    /// libmicrohttpd can record in the connection's memory (`connectionMemoryLimit`; 240
    /// short arguments in 32 KiB).
    ///
    /// libmicrohttpd 0.9.75 parses the query into the connection's memory pool before any
    /// handler runs, and when the pool runs out there it logs "Not enough memory in pool to
    /// allocate header record", decides on 431 but sends nothing, and leaves the connection
    /// open: the client waits until it gives up (measured here with a plain C server too). The
    /// query's records share the pool with the read buffer, which holds at least half of it
    /// then (libmicrohttpd starts it there) and more for a longer target; what the buffer
    /// holds beyond the target (headers sent with it) cannot be given back. So the query must
    /// fit beside a buffer of that size whatever follows the target: a budget from the target
    /// alone let 350 arguments with 8 KiB of headers go unanswered. It
    /// calls the URI log callback with the raw target just before; there the query is cut (so
    /// there is nothing to run out of memory on) and the connection is marked, so that its
    /// request, should libmicrohttpd get that far, never reaches the router.
    ///
    /// Over plain HTTP the answer is written on the socket from here (nothing else is being
    /// written on the connection then: the previous response, if any, was sent before this
    /// request line was read) and the sending side is shut down: a target that nearly fills
    /// the connection's memory leaves libmicrohttpd too little to answer itself. Over TLS bytes
    /// cannot be written past libmicrohttpd's session, so the access handler answers the 414
    /// through it, before any body, and libmicrohttpd closes the connection after it; at that
    /// edge libmicrohttpd may close without answering.
    func screen(uri: UnsafePointer<CChar>, on connection: OpaquePointer) {
        let length = strlen(uri)
        guard let question = strchr(uri, Int32(UInt8(ascii: "?"))) else { return }
        var arguments = 1
        var cursor = question
        while let ampersand = strchr(cursor + 1, Int32(UInt8(ascii: "&"))) {
            arguments += 1
            cursor = ampersand
        }
        let readBuffer = max(configuration.connectionMemoryLimit / 2, length + Self.memoryHeadroom)
        let needed = readBuffer + arguments * Self.memoryPerQueryArgument + Self.recordHeadroom
        guard needed > configuration.connectionMemoryLimit, let tracked = tracked(connection) else { return }
        tracked.refusedTargetArguments.store(arguments, ordering: .relaxed)
        tracked.refusedTargetBytes.store(max(length, 1), ordering: .relaxed)
        // Leave libmicrohttpd an empty query to parse, so it never runs out of memory there.
        // `uri` points into its read buffer, which it writes into itself right after this
        // callback (a NUL over the '?', percent-decoding in place).
        UnsafeMutablePointer(mutating: question + 1).pointee = 0
        logger.debug("refused a query with too many arguments", metadata: ["arguments": "\(arguments)", "bytes": "\(length)"])
        guard configuration.tls == nil else { return }  // Answered by the access handler.

        tracked.answeredOutside.store(true, ordering: .relaxed)
        let reception = Reception(maxBodyBytes: configuration.maxBodyBytes, targetTooLong: (length, arguments))
        guard case .answer(let response) = responder.dispatch(Request(method: .GET, path: "/"), reception) else { return }
        let id = RequestID.make()
        if let observer {
            // The method is not known yet: the request line is still being parsed.
            observer.requestAnswered(
                RequestRecord(
                    id: id, method: HTTPMethod(rawValue: "-"), route: nil, status: response.status.code, bytes: response.body.count,
                    duration: .zero, caller: nil))
        }
        var head = "HTTP/1.1 \(response.status)\r\n\(RequestID.headerName): \(id)\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + response.body
        _ = bytes.withUnsafeBytes { send(tracked.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        shutDownSending(tracked.descriptor)
    }
}

/// `shutdown(2)` of the sending side (a free function: inside `HTTPServer`, `shutdown` names
/// the server's own method).
private func shutDownSending(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_WR))
}
