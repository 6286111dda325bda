#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One document app-shell prints under `--json`: compact, on one line (so a session is JSON Lines), as
/// `{"data": …, "type": "<kind>", "version": 1}`; integers beyond ±2^53 are written as strings, which
/// JavaScript and other tools that read numbers as doubles would otherwise round.
struct JSONDocument<Payload: Encodable>: Encodable {
    let type: String
    /// The format version of every document; it changes when a field changes meaning or goes away.
    let version = 1
    let data: Payload

    /// The document as one line of JSON.
    func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return LargeIntegers.quoted(in: String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}

/// A value of any encodable type, encoded as that value (through the encoder's container, so its strategies for
/// dates and the like apply): a document with such a field synthesizes its coding, leaving the field out when `nil`.
struct EncodedValue: Encodable {
    let value: any Encodable & Sendable

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Rewrites JSON text so that integers JavaScript cannot represent exactly become strings.
enum LargeIntegers {
    /// `json` with every integer token outside ±2^53 quoted; strings and other numbers are left as they are.
    static func quoted(in json: String) -> String {
        var output = ""
        var inString = false
        var escaped = false
        var token = ""
        func flush() {
            if isLarge(token) { output += "\"\(token)\"" } else { output += token }
            token = ""
        }
        for character in json {
            if inString {
                output.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "-" || character.isASCII && character.isNumber || (!token.isEmpty && ".eE+".contains(character)) {
                token.append(character)
            } else {
                flush()
                output.append(character)
                if character == "\"" { inString = true }
            }
        }
        flush()
        return output
    }

    private static func isLarge(_ token: String) -> Bool {
        guard !token.isEmpty, !token.contains(where: { ".eE".contains($0) }) else { return false }
        let digits = token.hasPrefix("-") ? token.dropFirst() : Substring(token)
        guard let magnitude = UInt64(digits) else { return digits.count > 15 }
        return magnitude > 1 << 53  // the largest integer a double holds exactly
    }
}
