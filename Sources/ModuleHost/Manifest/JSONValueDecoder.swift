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
struct JSONValueDecoder: Decoder {
    /// What one decoding run shares: the source the values' byte ranges index, and the objects visited.
    final class Run {
        let source: [UInt8]
        /// The objects keyed containers were made for, in the order they were made; an object opened twice is in it
        /// twice (``visitedObjects()`` merges them). An array, not a dictionary by offset: a dictionary with a new
        /// key type costs the runtime a search of every conformance in the process on first use.
        private var objects: [VisitedObject] = []

        init(source: [UInt8]) {
            self.source = source
        }

        /// Records that a keyed container was made for `value`; returns the number to mark its keys with.
        func open(_ value: JSONValue, codingPath: [any CodingKey]) -> Int {
            objects.append(VisitedObject(value: value, codingPath: codingPath))
            return objects.count - 1
        }

        /// Records that `key` was asked for in the object numbered `object`.
        func markAsked(_ key: String, inObject object: Int) {
            objects[object].asked.insert(key)
        }

        /// Records that every key of the object numbered `object` was enumerated.
        func markReadAll(inObject object: Int) {
            objects[object].readAllKeys = true
        }

        /// Every object visited, once each, in source order, with what was asked of it however many times it was
        /// opened.
        func visitedObjects() -> [VisitedObject] {
            var merged: [VisitedObject] = []
            for object in objects.sorted(by: { $0.value.byteRange.lowerBound < $1.value.byteRange.lowerBound }) {
                if let last = merged.last, last.value.byteRange.lowerBound == object.value.byteRange.lowerBound {
                    merged[merged.count - 1].asked.formUnion(object.asked)
                    merged[merged.count - 1].readAllKeys = last.readAllKeys || object.readAllKeys
                } else {
                    merged.append(object)
                }
            }
            return merged
        }

        func text(of value: JSONValue) -> String? {
            guard value.byteRange.upperBound <= source.count else { return nil }
            return String(decoding: source[value.byteRange], as: UTF8.self)
        }
    }

    /// An object the configuration's `init(from:)` opened, and the keys it asked for.
    struct VisitedObject {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var asked: Set<String> = []
        var readAllKeys = false
    }

    let value: JSONValue
    let codingPath: [any CodingKey]
    let run: Run
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value.kind else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object"))
        }
        let object = run.open(value, codingPath: codingPath)
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, object: object, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value.kind else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "expected an array"))
        }
        return UnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func child(_ value: JSONValue, _ key: any CodingKey) -> JSONValueDecoder {
        JSONValueDecoder(value: value, codingPath: codingPath + [key], run: run)
    }

}

extension JSONValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
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

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value.kind else { throw mismatch(type, "true or false") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value.kind else { throw mismatch(type, "a string") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number, _) = value.kind else { throw mismatch(type, "a number") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard case .number(let number, _) = value.kind else { throw mismatch(type, "a number") }
        let single = Float(number)
        guard single.isFinite else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath,
                debugDescription: "expected a number from \(-Float.greatestFiniteMagnitude) to \(Float.greatestFiniteMagnitude), found \(numberText)"))
        }
        return single
    }

    /// An integer of `type`: exact, from the number's own digits (a `Double` loses them past 2^53).
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number, let isInteger) = value.kind else { throw mismatch(type, "an integer") }
        if isInteger, let text = run.text(of: value), let exact = T(text, radix: 10) { return exact }
        if !isInteger, number.rounded(.towardZero) == number, let exact = T(exactly: number) { return exact }
        throw DecodingError.dataCorrupted(.init(
            codingPath: codingPath, debugDescription: "expected an integer from \(T.min) to \(T.max), found \(numberText)"))
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
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

/// A key made at run time: unknown members and the `super` key.
struct AnyConfigurationKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoder
    /// The object's number in the decoder's ``JSONValueDecoder/Run``.
    let object: Int
    /// The last value of each key (repeated keys are reported separately).
    let values: [String: JSONValue]
    let keys: [String]

    init(decoder: JSONValueDecoder, object: Int, members: [JSONValue.Member]) {
        self.decoder = decoder
        self.object = object
        var values: [String: JSONValue] = [:]
        var keys: [String] = []
        for member in members {
            if values.updateValue(member.value, forKey: member.key) == nil { keys.append(member.key) }
        }
        self.values = values
        self.keys = keys
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        decoder.run.markReadAll(inObject: object)
        // A loop rather than `compactMap`, whose generic form costs more on first use than the work.
        var all: [Key] = []
        for name in keys {
            if let key = Key(stringValue: name) { all.append(key) }
        }
        return all
    }

    func contains(_ key: Key) -> Bool {
        decoder.run.markAsked(key.stringValue, inObject: object)
        return values[key.stringValue] != nil
    }

    private func child(_ key: Key) throws -> JSONValueDecoder {
        decoder.run.markAsked(key.stringValue, inObject: object)
        guard let value = values[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing field \"\(key.stringValue)\""))
        }
        return decoder.child(value, key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try child(key).decodeNil()
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: AnyConfigurationKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key)
    }

    private func superDecoder(named key: any CodingKey) throws -> any Decoder {
        decoder.run.markAsked(key.stringValue, inObject: object)
        let null = JSONValue(kind: .null, location: decoder.value.location, byteRange: decoder.value.byteRange)
        return decoder.child(values[key.stringValue] ?? null, key)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoder
    let elements: [JSONValue]
    var currentIndex = 0

    init(decoder: JSONValueDecoder, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> JSONValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(
                codingPath: codingPath + [AnyConfigurationKey(intValue: currentIndex)],
                debugDescription: "expected another element; the array has \(elements.count)"))
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], AnyConfigurationKey(intValue: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex].kind else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next()
    }
}
