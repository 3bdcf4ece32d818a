import CMicroHTTPD

/// A certificate chain and its private key, PEM-encoded, for serving HTTPS through
/// libmicrohttpd's own TLS (GnuTLS).
public struct TLSCredentials: Sendable {
    /// The server certificate first, then any intermediates.
    public var certificatePEM: String
    public var privateKeyPEM: String

    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Whether the server speaks TLS on this libmicrohttpd (built with GnuTLS).
    public static var isSupported: Bool { CMHD_tls_supported() != 0 }
}

extension Optional where Wrapped == TLSCredentials {
    /// Calls `body` with the key and certificate as C strings, or two `nil`s for plain HTTP.
    func withPEMs<T>(_ body: (UnsafePointer<CChar>?, UnsafePointer<CChar>?) throws -> T) rethrows -> T {
        guard let credentials = self else { return try body(nil, nil) }
        return try credentials.privateKeyPEM.withCString { key in
            try credentials.certificatePEM.withCString { certificate in try body(key, certificate) }
        }
    }
}
