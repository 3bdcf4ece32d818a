/// The media types routemap's API reads.
enum MediaType {
    /// Whether `contentType` is JSON: `application/json` or `application/<anything>+json`,
    /// parameters (`; charset=utf-8`) allowed, case-insensitive. Request bodies must be.
    @Sendable static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = (contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: [" ", "\t"]).lowercased()
        if mediaType == "application/json" { return true }
        return mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json") && mediaType.count > "application/+json".count
    }
}

extension Substring {
    /// The text without leading and trailing characters from `characters`.
    fileprivate func trimmingCharacters(in characters: Set<Character>) -> Substring {
        var view = self
        while let first = view.first, characters.contains(first) { view.removeFirst() }
        while let last = view.last, characters.contains(last) { view.removeLast() }
        return view
    }
}
