import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// The devices, for a manager: `GET /v1/devices` lists them, `POST /v1/devices/{deviceId}/revoke`
/// revokes one (its token is refused from its next request on). Any device may rotate its own
/// token: `POST /v1/devices/me/token` (the old one works until the new one is first used).
struct DeviceManagementController {
    let directory: DeviceDirectory
    let authenticator: DeviceAuthenticator

    func register(on router: inout Router<APIContext>) {
        router.manager(.GET, "/v1/devices", list)
        router.manager(.POST, "/v1/devices/{deviceId}/revoke", revoke)
        router.device(.POST, "/v1/devices/me/token", rotate)
    }

    @Sendable func list(_ request: Request, _ caller: AuthenticatedDevice) async throws -> Response {
        let devices = try await directory.all()
        return .json(["devices": .array(devices.map { $0.json(caller: caller) })], headers: ["Cache-Control": "no-store"])
    }

    /// Revoking is idempotent by itself: a retry (with or without the same `Idempotency-Key`)
    /// gets the same answer, the device as first revoked.
    @Sendable func revoke(_ request: Request, _ caller: AuthenticatedDevice) async throws -> Response {
        _ = try RequestBody(request, allowed: [], emptyAllowed: true)
        let id = request.parameters["deviceId"] ?? ""
        let device = try await directory.revoke(id: id)
        authenticator.forget(deviceId: device.id)
        return .json(["device": device.json(caller: caller)], headers: ["Cache-Control": "no-store"])
    }

    /// A new token for the calling device. The old one keeps working until the new one is first
    /// used, then is refused: so a retry after a lost answer (with the old token) is safe, and
    /// needs no `Idempotency-Key` (the token, shown once, is never recorded).
    @Sendable func rotate(_ request: Request, _ caller: AuthenticatedDevice) async throws -> Response {
        _ = try RequestBody(request, allowed: [], emptyAllowed: true)
        let (device, token) = try await directory.rotateToken(id: caller.id)
        return .json(
            ["deviceId": .string(device.id), "name": .string(device.name), "role": .string(device.role.rawValue), "token": .string(token.value)],
            headers: ["Cache-Control": "no-store"])
    }
}

extension Device {
    /// A device as the listing shows it; `current` marks the caller's own.
    func json(caller: AuthenticatedDevice) -> JSON {
        var object: JSONObject = [
            "deviceId": .string(id), "name": .string(name), "role": .string(role.rawValue),
            "createdAt": .string(createdAt.wireText), "revoked": .bool(revokedAt != nil), "current": .bool(id == caller.id),
        ]
        if let revokedAt { object["revokedAt"] = .string(revokedAt.wireText) }
        return .object(object)
    }
}

extension DeviceError: ProblemConvertible {
    public var problem: Problem {
        switch self {
        case .deviceNotFound(let id):
            return .notFound("device", id)
        case .deviceRevoked(let id):
            return Problem(
                status: .conflict, code: "device_revoked", title: "Device revoked", detail: "The device '\(id)' is revoked.")
        }
    }
}

extension Problem {
    /// 403 `manager_only`: a till's token on an endpoint for managers.
    package static let managerOnly = Problem(
        status: .forbidden, code: "manager_only", title: "Manager only",
        detail: "This endpoint is for devices enrolled as managers; this device is a till.")
}

extension Router where Context == APIContext {
    /// Registers a route only devices with the `manager` role may call (a till gets 403).
    package mutating func manager(
        _ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (Request, AuthenticatedDevice) async throws -> Response
    ) {
        on(method, pattern, access: .manager) { request, context in try await handler(request, try context.requireDevice()) }
    }

    /// Registers a route only managers may call whose handler reads `data`, as
    /// ``device(_:_:reading:_:)`` does: at once on the server's thread when those reads are
    /// answered in process (SQLite), else inside ``DataReads/reading(_:)`` (PostgreSQL).
    package mutating func manager(
        _ method: HTTPMethod, _ pattern: String, reading data: some DataReads,
        _ handler: @escaping @Sendable (Request, AuthenticatedDevice) throws -> Response
    ) {
        guard !data.readsAreImmediate else {
            return on(method, pattern, access: .manager, immediately: { request, context in try handler(request, try context.requireDevice()) })
        }
        manager(method, pattern) { request, device in try await data.reading { try handler(request, device) } }
    }
}
