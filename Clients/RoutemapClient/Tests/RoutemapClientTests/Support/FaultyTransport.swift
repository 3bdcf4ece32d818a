import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import RoutemapClient

/// A transport to the real server that breaks the requests a test names, as a network or a busy
/// server would, and notes every request: `METHOD path key=… -> status`.
struct FaultyTransport: HTTPTransport {
    enum Fault: Sendable {
        /// The request never reaches the server (a lost connection).
        case unreachable
        /// The server never sees the request, and it is answered with this problem (as the
        /// server answers `overloaded` before any handler runs, or a rate limit).
        case refused(status: Int, code: String, retryAfter: Int?)
        /// The server handles the request, and its answer is replaced by this problem (as a
        /// handler that outlives `--request-timeout` is answered `503 timed_out` while its
        /// change still commits).
        case answeredLate(status: Int, code: String, retryAfter: Int?)
    }

    actor Plan {
        private var faults: [(method: String, pathSuffix: String, fault: Fault, remaining: Int)] = []
        private(set) var log: [String] = []

        /// Breaks the next `times` requests `METHOD …pathSuffix` with `fault`.
        func fail(_ method: String, _ pathSuffix: String, with fault: Fault, times: Int = .max) {
            faults.append((method, pathSuffix, fault, times))
        }

        func clear() { faults = [] }

        /// The lines noted for requests whose path ends with `pathSuffix`.
        func lines(_ pathSuffix: String) -> [String] { log.filter { $0.split(separator: " ")[1].hasSuffix(pathSuffix) } }

        fileprivate func fault(for request: URLRequest) -> Fault? {
            let method = request.httpMethod ?? "GET"
            let path = request.url?.path ?? ""
            guard let index = faults.firstIndex(where: { $0.method == method && path.hasSuffix($0.pathSuffix) && $0.remaining > 0 }) else { return nil }
            faults[index].remaining -= 1
            return faults[index].fault
        }

        fileprivate func note(_ request: URLRequest, _ outcome: String) {
            let key = request.value(forHTTPHeaderField: "Idempotency-Key") ?? "-"
            log.append("\(request.httpMethod ?? "GET") \(request.url?.path ?? "") key=\(key) -> \(outcome)")
        }
    }

    let plan = Plan()
    private let real = URLSessionTransport()

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        switch await plan.fault(for: request) {
        case nil:
            do {
                let answer = try await real.send(request)
                await plan.note(request, "\(answer.1.statusCode)")
                return answer
            } catch {
                await plan.note(request, "failed: \(error)")
                throw error
            }
        case .unreachable:
            await plan.note(request, "unreachable")
            throw URLError(.networkConnectionLost)
        case .refused(let status, let code, let retryAfter):
            await plan.note(request, "\(status) \(code) (not sent)")
            return try Self.problem(status, code, retryAfter, for: request)
        case .answeredLate(let status, let code, let retryAfter):
            let handled = try await real.send(request)
            await plan.note(request, "\(status) \(code) (handled: \(handled.1.statusCode))")
            return try Self.problem(status, code, retryAfter, for: request)
        }
    }

    /// A problem+json answer as the server writes it.
    private static func problem(_ status: Int, _ code: String, _ retryAfter: Int?, for request: URLRequest) throws -> (Data, HTTPURLResponse) {
        var headers = ["Content-Type": "application/problem+json"]
        if let retryAfter { headers["Retry-After"] = String(retryAfter) }
        let body: JSONValue = [
            "type": .string("urn:routemap:problem:\(code)"), "title": .string(code), "status": .int(Int64(status)),
            "detail": "Injected by the test's transport.", "code": .string(code),
        ]
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return (try JSONEncoder.sorted.encode(body), response)
    }
}
