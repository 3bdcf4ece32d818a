import RoutemapJSON

/// Percent-decoding of request paths and query arguments, done in place in libmicrohttpd's
/// buffers (its `MHD_OPTION_UNESCAPE_CALLBACK`).
enum PercentDecoding {
    /// Decodes each `%XX` in the NUL-terminated `text`, in place, and returns the new length.
    ///
    /// As libmicrohttpd's own unescaper does, except that `%00` stays as it is: libmicrohttpd
    /// hands paths and arguments over as C strings, so a decoded NUL would silently cut them
    /// short (`/bills/a%00b` would reach the handler as `/bills/a`). A `%` not followed by two
    /// hex digits stays as it is too. (libmicrohttpd turns a query's `+` into a space itself,
    /// before it calls this.)
    static func decodeInPlace(_ text: UnsafeMutablePointer<CChar>) -> Int {
        text.withMemoryRebound(to: UInt8.self, capacity: 1) { text in
            var from = 0
            var to = 0
            while text[from] != 0 {
                if text[from] == UInt8(ascii: "%"), let high = text[from + 1].hexDigitValue, let low = text[from + 2].hexDigitValue,
                    high != 0 || low != 0
                {
                    text[to] = high << 4 | low
                    from += 3
                } else {
                    text[to] = text[from]
                    from += 1
                }
                to += 1
            }
            text[to] = 0
            return to
        }
    }
}
