extension Response {
    /// The problem as `application/problem+json`, with its extra header fields.
    public init(_ problem: Problem) {
        var headers = problem.headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/problem+json")
        self.init(status: problem.status, headers: headers, body: problem.json.encoded())
    }
}
