/// How an app's links look: the in-app scheme, the schemes other programs use, and the host.
///
/// Set in the manifest's `routing` object; each field has a default:
/// ```json
/// {"routing": {"scheme": "modulehost-app", "externalSchemes": ["modulehost"], "host": "app"}, "modules": []}
/// ```
/// With these, a link from another program looks like `modulehost://app/numbers/fact/28`; inside the app,
/// `modulehost-app://app/…`, an external scheme, or just the path (`/numbers/fact/28`) opens a route.
package struct RoutingSettings: Sendable, Hashable, Codable {
    /// The scheme of in-app links, which another program may not use.
    package let scheme: String
    /// The schemes of links from other programs; none is the in-app scheme.
    package let externalSchemes: [String]
    /// The host every link names.
    package let host: String

    /// The settings of a manifest without a `routing` object.
    package static let standard = RoutingSettings(scheme: "modulehost-app", externalSchemes: ["modulehost"], host: "app")

    init(scheme: String, externalSchemes: [String], host: String) {
        self.scheme = scheme
        self.externalSchemes = externalSchemes
        self.host = host
    }

    /// Whether `text` is a scheme: a lowercase ASCII letter, then lowercase letters, digits, `+`, `-` or `.`
    /// (RFC 3986, lowercase as links are compared), at most 32 characters.
    package static func isScheme(_ text: String) -> Bool {
        guard let first = text.utf8.first, first >= 0x61, first <= 0x7A, text.utf8.count <= 32 else { return false }
        return text.utf8.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// Whether `text` is a host name: lowercase ASCII letters, digits, `-` and `.`, at most 64 characters.
    package static func isHost(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A)
    }
}
