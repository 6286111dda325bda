#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a module's configuration from the parser's ``JSONValue`` tree, so the check at validation is the same
/// as the one at load, and stricter than `JSONDecoder`:
///
/// - it records which keys the configuration's `init(from:)` asked for; members never asked for are unknown
///   keys (an object whose keys were enumerated with `allKeys` counts as fully read: its type checks its own);
/// - a key repeated in one object is an error (`JSONDecoder` silently keeps one);
/// - a number of the wrong kind or out of range names the field and what was expected
///   ("expected an integer from 1 to 10000" is the module's; "expected an integer from -2^63 to 2^63-1,
///   found 1e300" is the decoder's), never "The given data was not valid JSON".
///
/// Errors are `DecodingError`s whose coding paths reach the offending value, which ``ModuleConfiguration``
/// turns into located diagnostics.
public struct JSONValueDecoder: Decoder {
    public let value: JSONValue
    /// The coding path up to this decoder's parent; with `key`, this decoder's path. Kept in two parts so that a
    /// child for a scalar field allocates no array: the path is made only when asked for (errors, nested containers).
    private let parentPath: [any CodingKey]
    private let key: (any CodingKey)?
    public let run: Run
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder for `value` at `codingPath`.
    public init(value: JSONValue, codingPath: [any CodingKey], run: Run) {
        self.init(value: value, parentPath: codingPath, key: nil, run: run)
    }

    /// A decoder for `value` at `parentPath` followed by `key`.
    public init(value: JSONValue, parentPath: [any CodingKey], key: (any CodingKey)?, run: Run) {
        self.value = value
        self.parentPath = parentPath
        self.key = key
        self.run = run
    }

    public var codingPath: [any CodingKey] {
        guard let key else { return parentPath }
        return parentPath + [key]
    }

    /// How deep a configuration's containers may nest. Decoding a level takes several stack frames of the decoder
    /// and of the type's `init(from:)`, so a config as deep as the manifest allows (512 levels) could overflow a
    /// thread's stack (512 KB on Apple platforms' secondary threads); no real configuration comes near this.
    public static let maximumDepth = 64

    /// How many keys deep this decoder is.
    private var depth: Int { parentPath.count + (key == nil ? 0 : 1) }

    /// Throws when a container here would nest deeper than ``maximumDepth``.
    private func checkDepth() throws {
        guard depth < Self.maximumDepth else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: "the config nests more than \(Self.maximumDepth) levels deep"))
        }
    }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try checkDepth()
        guard case .object(let members) = value.kind else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object"))
        }
        let object = run.open(value, codingPath: codingPath)
        return KeyedDecodingContainer(JSONKeyedContainer<Key>(decoder: self, object: object, members: members))
    }

    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkDepth()
        guard case .array(let elements) = value.kind else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "expected an array"))
        }
        return JSONUnkeyedContainer(decoder: self, elements: elements)
    }

    public func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    public func child(_ value: JSONValue, _ key: any CodingKey) -> JSONValueDecoder {
        JSONValueDecoder(value: value, parentPath: codingPath, key: key, run: run)
    }
}

extension JSONValueDecoder: SingleValueDecodingContainer {
    public func decodeNil() -> Bool {
        if case .null = value.kind { return true }
        return false
    }

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        if case .null = value.kind {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)"))
    }

    /// The number's source text for messages, shortened when long.
    private var numberText: String {
        let text = run.text(of: value) ?? "this number"
        return text.count > 40 ? String(text.prefix(37)) + "..." : text
    }

    public func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value.kind else { throw mismatch(type, "true or false") }
        return flag
    }

    public func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value.kind else { throw mismatch(type, "a string") }
        return text
    }

    public func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number, _) = value.kind else { throw mismatch(type, "a number") }
        return number
    }

    public func decode(_ type: Float.Type) throws -> Float {
        guard case .number(let number, _) = value.kind else { throw mismatch(type, "a number") }
        let single = Float(number)
        guard single.isFinite else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath,
                debugDescription: "expected a number from \(-Float.greatestFiniteMagnitude) to \(Float.greatestFiniteMagnitude), found \(numberText)"))
        }
        return single
    }

    /// An integer of `type`: exact, from the number's own digits (a `Double` loses them past 2^53, and would round
    /// `1.0000000000000001` to 1), written plainly or with a fraction or an exponent that leave an integer (`1e3`).
    public func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number, let isInteger) = value.kind else { throw mismatch(type, "an integer") }
        // Below 2^53 an integer's Double is exact; larger ones, and numbers written with a point or an exponent,
        // are read from their text.
        if isInteger, number.magnitude < 0x1p53, let exact = T(exactly: number) { return exact }
        if let exact: T = run.integer(in: value) { return exact }
        throw DecodingError.dataCorrupted(.init(
            codingPath: codingPath, debugDescription: "expected an integer from \(T.min) to \(T.max), found \(numberText)"))
    }

    public func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    public func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    public func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    public func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    public func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    public func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    public func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    public func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    public func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    public func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == URL.self {
            let text = try decode(String.self)
            guard let url = URL(string: text) as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "expected a URL, found \"\(text)\""))
            }
            return url
        }
        return try T(from: self)
    }
}

