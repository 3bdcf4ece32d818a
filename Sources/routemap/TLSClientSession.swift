import CGnuTLS

/// A TLS client session over a connected socket, through GnuTLS (already linked by
/// libmicrohttpd), so `routemap healthcheck` can probe a server that serves HTTPS.
///
/// It encrypts but does not verify the server's certificate: the probe talks to its own
/// server on a local address, sends no secret and reads only the status line, and a server
/// with a certificate for a public name (not `127.0.0.1`) must still be found healthy.
final class TLSClientSession {
    private let session: gnutls_session_t
    private let credentials: gnutls_certificate_credentials_t

    /// Shakes hands over `socket`, which stays owned by the caller; its send and receive
    /// timeouts bound every step (GnuTLS then reports "try again", which is not retried).
    init(socket: Int32) throws(HealthcheckError) {
        var credentials: gnutls_certificate_credentials_t?
        try Self.check(gnutls_certificate_allocate_credentials(&credentials), "allocating credentials")
        guard let credentials else { throw HealthcheckError("TLS: no credentials") }
        var session: gnutls_session_t?
        let started = gnutls_init(&session, CGNUTLS_CLIENT)
        guard started == GNUTLS_E_SUCCESS, let session else {
            gnutls_certificate_free_credentials(credentials)
            throw HealthcheckError("TLS: starting a session: \(Self.message(started))")
        }
        self.session = session
        self.credentials = credentials
        try Self.check(gnutls_set_default_priority(session), "choosing ciphers")
        try Self.check(gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials)), "setting credentials")
        gnutls_transport_set_int2(session, socket, socket)
        var result: Int32
        repeat { result = gnutls_handshake(session) } while result == GNUTLS_E_INTERRUPTED
        try Self.check(result, "handshake")
    }

    deinit {
        gnutls_bye(session, GNUTLS_SHUT_WR)
        gnutls_deinit(session)
        gnutls_certificate_free_credentials(credentials)
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws(HealthcheckError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { gnutls_record_send(session, $0.baseAddress, $0.count) }
            if sent == GNUTLS_E_INTERRUPTED { continue }
            guard sent > 0 else { throw HealthcheckError("TLS: sending: \(Self.message(Int32(sent)))") }
            offset += sent
        }
    }

    /// Up to `count` decrypted bytes; empty when the server closed the session.
    func receive(upTo count: Int) throws(HealthcheckError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let received = buffer.withUnsafeMutableBytes { gnutls_record_recv(session, $0.baseAddress, $0.count) }
            if received == GNUTLS_E_INTERRUPTED { continue }
            guard received >= 0 else { throw HealthcheckError("TLS: receiving: \(Self.message(Int32(received)))") }
            return Array(buffer[0..<received])
        }
    }

    private static func check(_ result: Int32, _ doing: String) throws(HealthcheckError) {
        guard result == GNUTLS_E_SUCCESS else { throw HealthcheckError("TLS: \(doing): \(message(result))") }
    }

    private static func message(_ code: Int32) -> String {
        gnutls_strerror(code).map { String(cString: $0) } ?? "GnuTLS error \(code)"
    }
}
