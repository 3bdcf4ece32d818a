import RoutemapHTTP

extension Request {
    /// The path parameter `name` the router captured; routes are registered with it, so a
    /// missing one is a wiring bug and answers 404.
    package func parameter(_ name: String) throws -> String {
        guard let value = parameters[name] else { throw Problem.notFound(detail: "Missing path parameter '\(name)'.") }
        return value
    }
}
