import Foundation
import RoutemapHTTP

/// `--tls-cert` and `--tls-key`: both or neither, read once at start-up.
enum TLSFiles {
    /// The credentials in the two files, `nil` when neither is given; throws a one-line
    /// `SettingError` when only one is given, or a `TLSFileError` when a file cannot be read or
    /// is not PEM.
    static func load(certificate: String?, key: String?) throws -> TLSCredentials? {
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw SettingError(source: "--tls-cert (ROUTEMAP_TLS_CERT)", allowed: "given with --tls-key (ROUTEMAP_TLS_KEY)", given: nil)
        case (nil, _?):
            throw SettingError(source: "--tls-key (ROUTEMAP_TLS_KEY)", allowed: "given with --tls-cert (ROUTEMAP_TLS_CERT)", given: nil)
        case (let certificate?, let key?):
            guard TLSCredentials.isSupported else { throw TLSFileError(message: "this libmicrohttpd was built without TLS") }
            return TLSCredentials(certificatePEM: try read(certificate, "--tls-cert"), privateKeyPEM: try read(key, "--tls-key"))
        }
    }

    private static func read(_ path: String, _ flag: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TLSFileError(message: "\(flag): cannot read '\(path)'")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN ") else { throw TLSFileError(message: "\(flag): '\(path)' is not a PEM file") }
        return text
    }
}

/// A TLS file that cannot be used: one line, at start-up.
struct TLSFileError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
