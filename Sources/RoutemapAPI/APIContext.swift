import RoutemapDomain
import RoutemapHTTP

/// Who may call a route, declared where the route is registered.
package enum Access: Sendable {
    /// Anyone: health checks, enrollment, the web client's files.
    case open
    /// Only an enrolled device, with its bearer token (and within its rate limit).
    case device
    /// Only an enrolled device with the `manager` role (a till gets 403).
    case manager

    /// The least demanding of `accesses` (open, then device, then manager): how a path admits
    /// a method it does not have before its 405, so that whoever may call one of its methods
    /// learns which it has.
    static func leastDemanding(of accesses: [Access]) -> Access {
        accesses.contains(.open) ? .open : accesses.contains(.device) ? .device : .manager
    }
}

/// A device whose bearer token the API accepted.
package struct AuthenticatedDevice: Sendable, Hashable {
    package let id: String
    package var role: DeviceRole = .till

    package init(id: String, role: DeviceRole = .till) {
        self.id = id
        self.role = role
    }
}

/// What the API's handlers get with each request: the caller, as admission found it.
package struct APIContext: RequestContext {
    package typealias Access = RoutemapAPI.Access

    /// The device that called, on routes with `.device` or `.manager` access; `nil` on open routes.
    package let device: AuthenticatedDevice?
}

extension Router where Context == APIContext {
    /// Registers a route only enrolled devices may call; the handler gets the device. It may
    /// suspend (for writes that wait for their commit).
    package mutating func device(
        _ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (Request, AuthenticatedDevice) async throws -> Response
    ) {
        on(method, pattern, access: .device) { request, context in try await handler(request, try context.requireDevice()) }
    }

    /// Registers a route only enrolled devices may call, answered at once on the server's
    /// thread (for reads served from memory).
    package mutating func device(
        _ method: HTTPMethod, _ pattern: String, immediately handler: @escaping @Sendable (Request, AuthenticatedDevice) throws -> Response
    ) {
        on(method, pattern, access: .device, immediately: { request, context in try handler(request, try context.requireDevice()) })
    }

    /// Registers a route only enrolled devices may call, answered at once on the server's
    /// thread unless the handler hands back work that waits (a read that must sometimes write).
    package mutating func device(
        _ method: HTTPMethod, _ pattern: String,
        unlessWaiting handler: @escaping @Sendable (Request, AuthenticatedDevice) throws -> Router<APIContext>.Reply
    ) {
        on(method, pattern, access: .device, unlessWaiting: { request, context in try handler(request, try context.requireDevice()) })
    }

    /// Registers a route only enrolled devices may call whose handler reads `data`: answered
    /// at once on the server's thread when those reads are answered in process (SQLite), else
    /// run inside ``DataReads/reading(_:)`` with the connection suspended, so no server thread
    /// waits on the database (PostgreSQL).
    package mutating func device(
        _ method: HTTPMethod, _ pattern: String, reading data: some DataReads,
        _ handler: @escaping @Sendable (Request, AuthenticatedDevice) throws -> Response
    ) {
        guard !data.readsAreImmediate else { return device(method, pattern, immediately: handler) }
        device(method, pattern) { request, device in try await data.reading { try handler(request, device) } }
    }

    /// ``device(_:_:unlessWaiting:)`` for a handler that reads `data`, as
    /// ``device(_:_:reading:_:)`` decides.
    package mutating func device(
        _ method: HTTPMethod, _ pattern: String, reading data: some DataReads,
        unlessWaiting handler: @escaping @Sendable (Request, AuthenticatedDevice) throws -> Router<APIContext>.Reply
    ) {
        guard !data.readsAreImmediate else { return device(method, pattern, unlessWaiting: handler) }
        device(method, pattern) { request, device in
            switch try await data.reading({ try handler(request, device) }) {
            case .now(let response): return response
            case .later(let work): return try await work()
            }
        }
    }

    /// Registers a route anyone may call.
    package mutating func open(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (Request) async throws -> Response) {
        on(method, pattern, access: .open) { request, _ in try await handler(request) }
    }

    /// Registers a route anyone may call, answered at once on the server's thread.
    package mutating func open(_ method: HTTPMethod, _ pattern: String, immediately handler: @escaping @Sendable (Request) throws -> Response) {
        on(method, pattern, access: .open, immediately: { request, _ in try handler(request) })
    }
}

extension APIContext {
    /// The device; admission guarantees one on `.device` routes, so the 401 is a safety net.
    package func requireDevice() throws -> AuthenticatedDevice {
        guard let device else { throw Problem.unauthorized("This endpoint needs a device token.") }
        return device
    }
}
