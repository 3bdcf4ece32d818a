extension APIContext {
    /// The device id, for the server's request log and metrics (`RequestContext.caller`).
    var caller: String? { device?.id }
}
