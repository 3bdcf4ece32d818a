/// `routemap --version`.
enum RoutemapVersion {
    /// The release this source tree builds (as `openapi.yaml`'s `info.version`); raise both with each release.
    static let current = "1.0.0"
}
