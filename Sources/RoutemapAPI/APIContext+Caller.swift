extension APIContext {
    /// The device id, for the server's request log and metrics (`RequestContext.caller`).
    package var caller: String? { device?.id }
}
