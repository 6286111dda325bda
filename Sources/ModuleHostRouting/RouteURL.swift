import ModuleHost

/// A link taken apart: scheme, host, percent-decoded path segments and query items, each bounded by
/// `RouteLimits`. Parsing is strict: anything a link should not hold is an error, never guessed at.
struct RouteURL: Sendable, Hashable {
    let scheme: String
    let host: String
    let segments: [String]
    let query: [(name: String, value: String)]
    /// The link written out in full, as compared when redirects are followed.
    let canonical: String

    static func == (lhs: RouteURL, rhs: RouteURL) -> Bool { lhs.canonical == rhs.canonical }
    func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    /// Parses `text`; a bare path (`/numbers/fact/28`) is taken as a link with `defaults`' in-app scheme and host
    /// when `allowsPath`.
    static func parse(_ text: String, defaults: RoutingSettings, allowsPath: Bool) throws(RouteError) -> RouteURL {
        guard text.utf8.count <= RouteLimits.urlBytes else {
            // Bounded in bytes and escaped: the text is anyone's, and may hold escapes or endless combining marks.
            let start = DisplayText.quoted(String(decoding: text.utf8.prefix(64), as: UTF8.self), with: "'")
            throw RouteError(.urlTooLong, url: start + "…",
                             "the link is \(text.utf8.count) bytes long; links are limited to \(RouteLimits.urlBytes)")
        }
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
            throw invalid(text, "it holds a space, a control character or a character outside ASCII; percent-encode them")
        }
        guard !text.contains("#") else { throw invalid(text, "it has a fragment (\"#…\"); links to routes carry none") }
        let scheme: String, host: String, rest: Substring
        if text.hasPrefix("/") {
            guard allowsPath else { throw invalid(text, "it is a path without a scheme and host; links from outside are written in full") }
            (scheme, host, rest) = (defaults.scheme, defaults.host, text[...])
        } else {
            guard let separator = text.firstRange(of: "://") else {
                throw invalid(text, "expected <scheme>://\(defaults.host)/<path>, like \(defaults.externalSchemes.first ?? defaults.scheme)://\(defaults.host)/numbers/fact/28")
            }
            scheme = text[..<separator.lowerBound].lowercased()
            let afterScheme = text[separator.upperBound...]
            let hostEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            host = afterScheme[..<hostEnd].lowercased()
            rest = afterScheme[hostEnd...]
            guard RoutingSettings.isScheme(scheme) else { throw invalid(text, "\"\(scheme)\" is not a URL scheme") }
            guard RoutingSettings.isHost(host) else { throw invalid(text, "its host \(DisplayText.quoted(host, with: "\"")) is not a host name (links name no user, password or port)") }
        }
        let pathEnd = rest.firstIndex(of: "?") ?? rest.endIndex
        let rawPath = rest[..<pathEnd]
        let rawQuery = pathEnd < rest.endIndex ? rest[rest.index(after: pathEnd)...] : nil
        let segments = try pathSegments(rawPath, in: text)
        let query = try queryItems(rawQuery, in: text)
        return RouteURL(scheme: scheme, host: host, segments: segments, query: query,
                        canonical: canonical(scheme: scheme, host: host, segments: segments, query: query))
    }

    /// The scheme of `text`, lowercased, when it is written `<scheme>://…` with a valid scheme, within the length
    /// of a link and in printable ASCII (so it may be shown as it is); otherwise `nil` (`parse(_:defaults:allowsPath:)`
    /// says what is wrong).
    static func scheme(of text: String) -> String? {
        guard text.utf8.count <= RouteLimits.urlBytes, !text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }),
              let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        return RoutingSettings.isScheme(scheme) ? scheme : nil
    }

    private static func pathSegments(_ path: Substring, in text: String) throws(RouteError) -> [String] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "" { parts.removeFirst() }
        if parts.count > 1, parts.last == "" { parts.removeLast() }
        guard !parts.isEmpty, parts != [""] else { throw invalid(text, "its path is empty; it names no route") }
        guard parts.count <= RouteLimits.segments else {
            throw invalid(text, "its path has \(parts.count) segments; the most a route has is \(RouteLimits.segments)")
        }
        var segments: [String] = []
        for part in parts {
            guard !part.isEmpty else { throw invalid(text, "its path has an empty segment (\"//\")") }
            let decoded = try decode(part, in: text)
            guard decoded != ".", decoded != ".." else { throw invalid(text, "its path has a \".\" or \"..\" segment") }
            segments.append(decoded)
        }
        return segments
    }

    private static func queryItems(_ query: Substring?, in text: String) throws(RouteError) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true)
        guard pairs.count <= RouteLimits.queryItems else {
            throw invalid(text, "it has \(pairs.count) query items; the limit is \(RouteLimits.queryItems)")
        }
        var items: [(name: String, value: String)] = []
        for pair in pairs {
            let equals = pair.firstIndex(of: "=")
            let name = try decode(pair[..<(equals ?? pair.endIndex)], in: text)
            let value = try equals.map { index throws(RouteError) in try decode(pair[pair.index(after: index)...], in: text) } ?? ""
            guard !items.contains(where: { $0.name == name }) else {
                throw invalid(text, "the query item \(DisplayText.quoted(name, with: "\"")) appears more than once")
            }
            items.append((name, value))
        }
        return items
    }

    /// The one spelling of a link: its decoded segments and query items encoded again, every byte that is not
    /// unreserved (RFC 3986) as `%XX` in upper case, and nothing else; `…/fact/%37` and `…/fact/7` are one URL.
    private static func canonical(scheme: String, host: String, segments: [String], query: [(name: String, value: String)]) -> String {
        var text = "\(scheme)://\(host)/" + segments.map(encode).joined(separator: "/")
        if !query.isEmpty { text += "?" + query.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&") }
        return text
    }

    /// `text` percent-encoded: unreserved bytes as they are, every other byte as `%XX`.
    private static func encode(_ text: String) -> String {
        guard !text.utf8.allSatisfy(RoutePattern.isUnreserved) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if RoutePattern.isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Percent-decodes `part`: every `%` is followed by two hexadecimal digits, and the result is UTF-8.
    private static func decode(_ part: Substring, in text: String) throws(RouteError) -> String {
        guard part.contains("%") else { return String(part) }
        var bytes: [UInt8] = []
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw invalid(text, "a \"%\" is not followed by two hexadecimal digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw invalid(text, "a percent-encoded part is not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private static func invalid(_ text: String, _ why: String) -> RouteError {
        RouteError(.invalidURL, url: text, "\(DisplayText.quoted(text, with: "'")) is not a link this app opens: \(why)")
    }
}
