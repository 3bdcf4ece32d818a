import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The request pipeline the callbacks drive: read the head, take the body, answer.

extension HTTPServer {
    /// First call, headers in: reads method, path, headers, query and peer (as bytes: written
    /// out only if asked for).
    func begin(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> RequestState {
        let methodText = method.flatMap { String(validatingCString: $0) }
        let pathText = url.flatMap { String(validatingCString: $0) }
        let state = RequestState(method: HTTPMethod(rawValue: methodText ?? ""), path: Self.originPath(of: pathText ?? ""))
        if methodText == nil || pathText == nil {
            state.badRequest = "The request line is not valid UTF-8."
        }

        var headers = RequestState.Collector()
        _ = withUnsafeMutablePointer(to: &headers) {
            MHD_get_connection_values_n(connection, CMHD_HEADER_KIND, HTTPServer.collectField, $0)
        }
        if headers.invalid { state.badRequest = state.badRequest ?? "A header field is not valid UTF-8." }
        state.headers = HTTPHeaders(fields: headers.fields)
        state.id = RequestID.take(from: state.headers[RequestID.headerName])
        if let version, strcmp(version, "HTTP/1.1") == 0, state.headers.count(of: "Host") != 1 {
            // RFC 9112 section 3.2: exactly one Host field in an HTTP/1.1 request.
            state.badRequest = state.badRequest ?? "An HTTP/1.1 request needs exactly one Host header field."
        }
        if let conflict = HTTPServer.framingConflict(state.headers) {
            state.badRequest = state.badRequest ?? conflict
            state.answerEarly = true
        }

        var arguments = RequestState.Collector()
        _ = withUnsafeMutablePointer(to: &arguments) {
            MHD_get_connection_values_n(connection, CMHD_GET_ARGUMENT_KIND, HTTPServer.collectField, $0)
        }
        if arguments.invalid { state.badRequest = state.badRequest ?? "The query is not valid UTF-8." }
        for (name, value) in arguments.fields where state.query[name] == nil {
            state.query[name] = value
        }

        state.peer = PeerAddress(of: connection)
        return state
    }

    /// The answer to give before the body arrives, through the pipeline: 400 when the body's
    /// length is ambiguous, or (after admission and routing, so a client without credentials
    /// gets 401, not 413) 413 when the request declares a `Content-Length` over the limit. MHD
    /// then closes the connection, which suits a client that was about to upload too much, and
    /// one whose body's end can't be trusted. `nil`: read the body.
    ///
    /// An admission that would have to wait (a credential to look up) cannot run here, before
    /// the body: the declared body is refused whatever it decides, so the answer is 413 then,
    /// the same for every path and caller, which tells nothing the wait would have guarded.
    func earlyResponse(_ state: RequestState) -> Response? {
        var reception = Reception(maxBodyBytes: configuration.maxBodyBytes)
        if state.answerEarly {
            reception.unreadable = state.badRequest
            reception.targetTooLong = state.targetTooLong
        } else if let declared = state.headers["Content-Length"].flatMap({ Int($0) }), declared > configuration.maxBodyBytes {
            reception.unreadable = state.badRequest
            reception.bodyTooLarge = true
        } else {
            return nil
        }
        switch responder.dispatch(state.head(), reception, labels: &state.labels) {
        case .answer(let response): return response
        // Only admission can wait here: an unreadable request is answered before it, and a
        // body too large before any handler.
        case .suspend: return responder.response(for: .payloadTooLarge(limit: configuration.maxBodyBytes))
        }
    }

    /// A body chunk: kept up to `maxBodyBytes`; past that the body is dropped and marked too
    /// large (chunked uploads declare no length up front).
    func receive(_ chunk: UnsafeRawBufferPointer, into state: RequestState) {
        guard !state.tooLarge else { return }
        guard state.body.count + chunk.count <= configuration.maxBodyBytes else {
            state.tooLarge = true
            state.body = []
            return
        }
        state.body.append(contentsOf: chunk)
    }

    /// The whole request is in: the pipeline's decision (`Router.dispatch`).
    func finish(_ state: RequestState) -> Dispatch {
        var request = state.head()
        request.body = state.body
        state.body = []
        return responder.dispatch(
            request, Reception(maxBodyBytes: configuration.maxBodyBytes, bodyTooLarge: state.tooLarge, unreadable: state.badRequest),
            labels: &state.labels)
    }

    /// Runs `work` in Swift concurrency with the connection suspended, and queues its answer
    /// when libmicrohttpd calls back after the resume. Past the limit of waiting requests it
    /// answers 503 `overloaded` at once instead, and once the stop has closed the door to
    /// handlers, 503 `shutting_down`.
    ///
    /// `work` starts on this thread (`Task.immediate`) and leaves it at its first suspension,
    /// such as a write awaiting its commit: what a handler does before that (reading the body,
    /// checking it) costs no hop to another thread and back. Measured: the order cycle ran
    /// about a quarter faster; add item gained less than its noise (BENCHMARKS.md, run X).
    /// A handler must therefore not block before it first awaits, which routemap's do not:
    /// their waits are `await`s (a commit, a PostgreSQL read through `DataReads.reading`). A
    /// `work` that finishes without suspending resumes the connection before this returns,
    /// which libmicrohttpd allows (its resume only marks the connection and wakes the daemon).
    func suspend(
        _ state: RequestState, on connection: OpaquePointer, running work: @escaping @Sendable (inout RequestLabels) async -> Response
    ) -> MHD_Result {
        let suspension: SuspendedRequests.Suspension
        do {
            suspension = try suspended.suspend(connection)
        } catch {
            state.responded = true
            let refusal: Problem = switch error {
            case .full: .overloaded(retryAfter: 1)
            case .closed: .shuttingDown()  // `overloaded` would promise room soon.
            }
            return queue(responder.response(for: refusal), for: state, on: connection)
        }
        state.suspension = suspension
        let suspended = self.suspended
        Task.immediate {
            var labels = RequestLabels()
            let response = await work(&labels)
            suspended.complete(suspension, with: response, caller: labels.caller)
        }
        return CMHD_YES
    }

    /// Hands the answer to `state`'s request to MHD, with its `X-Request-Id`, and tells the
    /// observer. A prepared response (`PreparedResponse`) lends its body without a copy; any
    /// other body is copied. Header fields MHD refuses (line breaks in a value...) are dropped
    /// and logged.
    func queue(_ response: Response, for state: RequestState, on connection: OpaquePointer) -> MHD_Result {
        var response = response
        if !(100...999).contains(response.status.code) {
            logger.error("handler answered an invalid status", metadata: ["status": "\(response.status.code)", "requestId": "\(state.id)"])
            response = responder.response(for: .internalError())
        }
        let created: OpaquePointer?
        if let prepared = response.prepared {
            created = prepared.lendBody()
        } else {
            created = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), CMHD_RESPMEM_MUST_COPY)
            }
        }
        guard let created else { return CMHD_NO }
        defer { MHD_destroy_response(created) }
        _ = HTTPServer.addHeader(RequestID.headerName, state.id, to: created)
        for (name, value) in response.headers where !HTTPServer.addHeader(name, value, to: created) {
            logger.warning("dropped a response header field MHD refused", metadata: ["name": "\(name)"])
        }
        if shuttingDown.load(ordering: .relaxed) {
            _ = HTTPServer.addHeader("Connection", "close", to: created)
        }
        let queued = MHD_queue_response(connection, UInt32(response.status.code), created)
        if let observer {
            let labels = state.labels
            observer.requestAnswered(
                RequestRecord(
                    id: state.id, method: state.method, route: labels.route, status: response.status.code, bytes: response.body.count,
                    duration: ContinuousClock.Instant.now - state.started, caller: labels.caller))
        }
        return queued
    }

    /// Adds a header field to an MHD response; `false` when MHD refuses it. Through `withCString`:
    /// passing a `String` straight to a C parameter copies it into a new array first, and every
    /// answer adds four or five fields.
    static func addHeader(_ name: String, _ value: String, to response: OpaquePointer) -> Bool {
        name.withCString { name in
            value.withCString { value in MHD_add_response_header(response, name, value) == CMHD_YES }
        }
    }

    /// The path of a request target in absolute form (`http://host/path`, which RFC 9112
    /// section 3.2.2 has servers accept, as a proxy sends it): what follows the authority, `/`
    /// when nothing does. A target in origin form (`/path`) is returned as it is.
    static func originPath(of target: String) -> String {
        let utf8 = target.utf8
        guard utf8.first != UInt8(ascii: "/") else { return target }
        for scheme in ["http://", "https://"] where utf8.count >= scheme.utf8.count {
            guard utf8.prefix(scheme.utf8.count).lazy.map({ $0 | 0x20 }).elementsEqual(scheme.utf8) else { continue }
            let afterScheme = utf8.index(utf8.startIndex, offsetBy: scheme.utf8.count)
            guard let slash = utf8[afterScheme...].firstIndex(of: UInt8(ascii: "/")) else { return "/" }
            return String(target[slash...])
        }
        return target
    }

    /// Why the body's length is ambiguous, or `nil`: `Content-Length` fields that disagree, one
    /// beside `Transfer-Encoding`, or a transfer coding other than `chunked` alone (RFC 9112
    /// sections 6.1 and 6.3). libmicrohttpd picks one reading (another coding: the body runs to
    /// the connection's end, swallowing the requests after it); a proxy in front might pick
    /// another and see a different next request (smuggling).
    static func framingConflict(_ headers: HTTPHeaders) -> String? {
        // Most requests send neither field: looked for first, without collecting values.
        let hasCodings = headers["Transfer-Encoding"] != nil
        if hasCodings {
            let listed = headers.values(for: "Transfer-Encoding").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            guard listed.count == 1, listed[0].trimmingASCIIWhitespace().lowercased() == "chunked" else {
                return "The only Transfer-Encoding accepted is chunked."
            }
        }
        guard headers["Content-Length"] != nil else { return nil }
        if hasCodings {
            return "Content-Length and Transfer-Encoding must not both be sent."
        }
        let lengths = headers.values(for: "Content-Length")
        let distinct = Set(lengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIIWhitespace() })
        return distinct.count > 1 ? "The Content-Length fields disagree." : nil
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        var view = self
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return view
    }
}
