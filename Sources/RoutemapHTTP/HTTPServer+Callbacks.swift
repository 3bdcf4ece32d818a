import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// libmicrohttpd's callbacks: non-isolated C function pointers (never closures written in
// main-actor-isolated code, which would be main-actor isolated too). The server arrives through
// `cls`, unretained: it keeps itself alive while running. The per-request `RequestState` sits
// retained in `*req_cls`.

extension HTTPServer {
    /// MHD's access handler: called when the headers are in, once per body chunk, and once
    /// more with no data when the request is complete (then the response is queued; queuing
    /// earlier would make MHD close the connection).
    static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, url, method, version, uploadData, uploadDataSize, requestContext in
        guard let cls, let connection, let uploadDataSize, let requestContext else { return CMHD_NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()

        guard let existing = requestContext.pointee else {
            let tracked = server.tracked(connection)
            // Answered already by `screen(uri:on:)`: close without reading on.
            if tracked?.answeredOutside.load(ordering: .relaxed) == true { return CMHD_NO }
            let state = server.begin(connection: connection, url: url, method: method, version: version)
            if let tracked, case let bytes = tracked.refusedTargetBytes.load(ordering: .relaxed), bytes > 0 {
                // Its query was cut by `screen(uri:on:)`: 414, and the connection closes.
                state.targetTooLong = (bytes, tracked.refusedTargetArguments.load(ordering: .relaxed))
                state.answerEarly = true
            }
            requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
            server.inFlight.wrappingAdd(1, ordering: .sequentiallyConsistent)
            guard let early = server.earlyResponse(state) else { return CMHD_YES }
            state.responded = true
            return server.queue(early, for: state, on: connection)
        }

        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        if uploadDataSize.pointee > 0 {
            if !state.responded, let uploadData {
                server.receive(UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee), into: state)
            }
            uploadDataSize.pointee = 0
            return CMHD_YES
        }
        if state.responded { return CMHD_YES }
        if let suspension = state.suspension {
            // Resumed: the handler, the timeout or the shutdown left the answer.
            guard let answer = suspension.takeAnswer() else { return CMHD_YES }
            state.responded = true
            if let caller = answer.caller { state.labels.caller = caller }
            return server.queue(answer.response, for: state, on: connection)
        }
        server.tracked(connection).map { server.connections.received($0) }
        switch server.finish(state) {
        case .answer(let response):
            state.responded = true
            return server.queue(response, for: state, on: connection)
        case .suspend(let work):
            return server.suspend(state, on: connection, running: work)
        }
    }

    /// MHD's `NOTIFY_COMPLETED`: the response was sent, or the client went away, or the
    /// daemon stops. Releases the request's state and ends its time in flight.
    /// Also starts the clock for the connection's next request.
    static let completedHandler: MHD_RequestCompletedCallback = { cls, connection, requestContext, _ in
        guard let cls, let requestContext, let pointer = requestContext.pointee else { return }
        requestContext.pointee = nil
        Unmanaged<RequestState>.fromOpaque(pointer).release()
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        server.inFlight.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        server.tracked(connection).map { server.connections.answered($0) }
    }

    /// MHD's `NOTIFY_CONNECTION`: registers each new connection with `connections`, retained
    /// in `*socket_context`, and unregisters it when MHD closes it (before MHD closes its socket).
    static let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let socketContext else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let connections = server.connections
        if code == CMHD_CONNECTION_NOTIFY_STARTED {
            let descriptor = CMHD_connection_fd(connection)
            guard descriptor >= 0, socketContext.pointee == nil else { return }
            let opened = connections.opened(descriptor: descriptor)
            socketContext.pointee = Unmanaged.passRetained(opened).toOpaque()
            if let counted = server.addressConnections, let connection { counted.opened(opened, peer: PeerAddress(of: connection)?.text) }
        } else if code == CMHD_CONNECTION_NOTIFY_CLOSED, let pointer = socketContext.pointee {
            socketContext.pointee = nil
            let tracked = Unmanaged<OpenConnections.Connection>.fromOpaque(pointer)
            connections.closed(tracked.takeUnretainedValue())
            server.addressConnections?.closed(tracked.takeUnretainedValue())
            tracked.release()
        }
    }

    /// MHD's `URI_LOG_CALLBACK`: the request target, before MHD parses its query (see
    /// `screen(uri:on:)`). Returns no request context: the access handler makes it.
    static let uriLogged: CMHD_UriLogCallback = { cls, uri, connection in
        guard let cls, let uri, let connection else { return nil }
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().screen(uri: uri, on: connection)
        return nil
    }

    /// Collects header fields or query arguments into a `RequestState.Collector` (in `cls`);
    /// a name or value that is not UTF-8 marks the collection invalid and stops it.
    static let collectField: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls else { return CMHD_NO }
        let collector = cls.assumingMemoryBound(to: RequestState.Collector.self)
        let name = key.flatMap { HTTPServer.text($0, count: keySize) }
        let text = value.map { HTTPServer.text($0, count: valueSize) } ?? ""
        guard let name, let text else {
            collector.pointee.invalid = true
            return CMHD_NO
        }
        if collector.pointee.fields.isEmpty { collector.pointee.fields.reserveCapacity(8) }
        collector.pointee.fields.append((name, text))
        return CMHD_YES
    }

    /// `count` bytes at `start` as a string, or `nil` when they are not UTF-8. ASCII, which
    /// nearly every header is, is checked with a plain loop rather than the generic validator
    /// (a tenth of the cost, on every field of every request).
    static func text(_ start: UnsafePointer<CChar>, count: Int) -> String? {
        start.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            let bytes = UnsafeBufferPointer(start: start, count: count)
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            return String(validating: bytes, as: UTF8.self)
        }
    }

    /// What `connections` keeps about `connection`.
    func tracked(_ connection: OpaquePointer?) -> OpenConnections.Connection? {
        guard let pointer = CMHD_socket_context(connection) else { return nil }
        return Unmanaged<OpenConnections.Connection>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// MHD's external logger (`cls` is the server): formats the line, drops its line end and
    /// hands it to `libraryLogged`. Lines longer than 511 bytes are cut.
    static let libraryLog: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        var line = [CChar](repeating: 0, count: 512)
        guard vsnprintf(&line, line.count, format, arguments) >= 0 else { return }
        var text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().libraryLogged(text)
    }

    /// MHD's unescaper for paths and query arguments: `PercentDecoding.decodeInPlace`.
    static let unescape: CMHD_UnescapeCallback = { _, _, text in
        guard let text else { return 0 }
        return PercentDecoding.decodeInPlace(text)
    }
}
