/// A key made at run time: unknown members and the `super` key.
public struct AnyConfigurationKey: CodingKey {
    public let stringValue: String
    public let intValue: Int?

    public init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    public init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

/// The keyed container of ``JSONValueDecoder``: an object's members, the last of each key winning (repeated keys
/// are reported separately), and every key asked for noted in the decoding run.
///
/// It keeps what its fields need, not its decoder: the standard library copies a container into a box of its own,
/// and every reference it holds is then retained again, once per configuration.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let run: JSONValueDecoder.Run
    let codingPath: [any CodingKey]
    /// The object's index in the run's visited objects.
    let object: Int
    let members: [JSONValue.Member]
    /// Where the object is, for the null a missing super decoder's key reads.
    private let location: JSONLocation
    private let byteRange: Range<Int>
    /// The index of the last member of each key, for objects not searched in order
    /// (``JSONValue/comparesKeysInOrder(_:)``).
    private let lastIndex: [String: Int]?

    init(decoder: JSONValueDecoder, object: Int, members: [JSONValue.Member]) {
        run = decoder.run
        codingPath = decoder.codingPath
        location = decoder.value.location
        byteRange = decoder.value.byteRange
        self.object = object
        self.members = members
        if !JSONValue.comparesKeysInOrder(members) {
            var lastIndex: [String: Int] = [:]
            for (index, member) in members.enumerated() { lastIndex[member.key] = index }
            self.lastIndex = lastIndex
        } else {
            self.lastIndex = nil
        }
    }

    /// The index of the last member named `key`, noted in the run as asked for.
    private func ask(_ key: String) -> Int? {
        let index = lastIndex.map { $0[key] } ?? members.lastIndex(where: { $0.key == key })
        run.markAsked(key, member: index, in: object)
        return index
    }

    var allKeys: [Key] {
        run.markReadAll(in: object)
        var seen: Set<String> = []
        var keys: [Key] = []
        for member in members where seen.insert(member.key).inserted {
            if let key = Key(stringValue: member.key) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        ask(key.stringValue) != nil
    }

    private func child(_ key: Key) throws -> JSONValueDecoder {
        guard let index = ask(key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing field \"\(key.stringValue)\""))
        }
        return JSONValueDecoder(value: members[index].value, parentPath: codingPath, key: key, run: run)
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
        let null = JSONValue(kind: .null, location: location, byteRange: byteRange)
        return JSONValueDecoder(value: ask(key.stringValue).map { members[$0].value } ?? null, parentPath: codingPath, key: key, run: run)
    }
}
