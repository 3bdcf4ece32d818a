/// Splits a migration script into its statements: postgres-nio sends each statement with the
/// extended query protocol, which takes one statement at a time.
///
/// Splits at `;` outside quoted text (`'…'`, `"…"`), dollar-quoted bodies (`$$…$$`,
/// `$tag$…$tag$`, as in a function's body) and comments (`-- …`, `/* … */`). Statements that
/// are only comments and blanks are dropped.
enum SQLScript {
    static func statements(in script: String) -> [String] {
        let text = Array(script.unicodeScalars)
        var statements: [String] = []
        var current = String.UnicodeScalarView()
        var hasCode = false
        var index = 0

        func append(_ end: Int) {
            current.append(contentsOf: text[index..<end])
            index = end
        }

        while index < text.count {
            let scalar = text[index]
            let next: Unicode.Scalar? = index + 1 < text.count ? text[index + 1] : nil
            switch scalar {
            case "-" where next == "-":
                var end = index
                while end < text.count, text[end] != "\n" { end += 1 }
                append(end)
            case "/" where next == "*":
                var end = index + 2
                while end + 1 < text.count, !(text[end] == "*" && text[end + 1] == "/") { end += 1 }
                append(min(end + 2, text.count))
            case "'", "\"":
                var end = index + 1
                while end < text.count {
                    if text[end] == scalar {
                        // A doubled quote is one quote character inside the text.
                        if end + 1 < text.count, text[end + 1] == scalar { end += 2; continue }
                        break
                    }
                    end += 1
                }
                hasCode = true
                append(min(end + 1, text.count))
            case "$":
                // A dollar quote's tag: $$ or $name$ (a $1 parameter is not one).
                var end = index + 1
                while end < text.count, text[end] == "_" || text[end].properties.isAlphabetic || (end > index + 1 && text[end].properties.numericType != nil) {
                    end += 1
                }
                hasCode = true
                guard end < text.count, text[end] == "$" else {
                    append(index + 1)
                    continue
                }
                let tag = Array(text[index...end])
                var close = end + 1
                while close < text.count, !(text[close] == "$" && close + tag.count <= text.count && Array(text[close..<close + tag.count]) == tag) {
                    close += 1
                }
                append(min(close + tag.count, text.count))
            case ";":
                if hasCode { statements.append(String(current)) }
                current = String.UnicodeScalarView()
                hasCode = false
                index += 1
            default:
                if !scalar.properties.isWhitespace { hasCode = true }
                append(index + 1)
            }
        }
        if hasCode { statements.append(String(current)) }
        return statements.map { $0.trimmingWhitespace }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
