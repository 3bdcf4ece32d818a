import RoutemapJSON
import Testing

/// Checks a problem+json answer: status, stable code, and the RFC 9457 members, with
/// routemap's problem type (`urn:routemap:problem:<code>`).
public func expectProblem(_ response: TestResponse, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    let body = response.json
    #expect(body["code"] == .string(code), "\(response.text)", sourceLocation: sourceLocation)
    #expect(body["status"] == .int(Int64(status)), sourceLocation: sourceLocation)
    #expect(body["type"] == .string("urn:routemap:problem:" + code), sourceLocation: sourceLocation)
    #expect(body["title"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(body["detail"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
}
