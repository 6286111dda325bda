/// A parsed JSON value that remembers where it stood in its file, so diagnostics can point at it.
public struct JSONValue: Sendable {
    /// The value's kind and content.
    public enum Kind: Sendable {
        case object([Member])
        case array([JSONValue])
        case string(String)
        case number(Double, isInteger: Bool)
        case bool(Bool)
        case null
    }

    /// One `"key": value` pair of an object, in file order.
    public struct Member: Sendable {
        public let key: String
        public let keyLocation: JSONLocation
        public let value: JSONValue
    }

    public let kind: Kind
    /// Where the value starts.
    public let location: JSONLocation
    /// The value's bytes in the source, so a sub-tree can be handed to `JSONDecoder` unchanged.
    public let byteRange: Range<Int>

    /// A value of `kind` that starts at `location` and spans `byteRange` of its source.
    ///
    /// - Parameters:
    ///   - kind: The value's kind and content.
    ///   - location: Where the value starts.
    ///   - byteRange: The value's bytes in its source.
    public init(kind: Kind, location: JSONLocation, byteRange: Range<Int>) {
        self.kind = kind
        self.location = location
        self.byteRange = byteRange
    }

    /// The JSON type name used in "expected X, found Y" messages.
    public var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// Whether the keys of `members` are best compared pair by pair rather than hashed: few of them, all ASCII.
    ///
    /// Comparing a pair of ASCII keys compares bytes; hashing costs more for a handful of short keys. Keys that
    /// are not ASCII are compared by canonical equivalence, a normalisation per comparison, so they are hashed
    /// (once each) however few they are.
    public static func comparesKeysInOrder(_ members: [Member]) -> Bool {
        guard members.count <= 16 else { return false }
        // Each key read in place through the buffer: `allSatisfy` over the array copied every member, the
        // references in its value with it.
        return members.withUnsafeBufferPointer { members in
            members.indices.allSatisfy { ASCIIText.isASCII(members[$0].key) }
        }
    }

    /// Finds the members of an object whose key an earlier member already has: few ASCII keys are compared in
    /// order, others hashed (``comparesKeysInOrder(_:)``). Ask for the members in order, each once.
    public struct RepeatedKeys {
        private let members: [Member]
        private var seen: Set<String>?

        public init(_ members: [Member]) {
            self.members = members
            seen = JSONValue.comparesKeysInOrder(members) ? nil : []
        }

        /// Whether the member at `index` repeats the key of an earlier one.
        public mutating func isRepeated(at index: Int) -> Bool {
            let key = members[index].key
            guard seen != nil else { return members[..<index].contains { $0.key == key } }
            return seen?.insert(key).inserted == false
        }
    }

    /// The member named `key`, if this is an object that has one (the last, if repeated).
    public func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.last(where: { $0.key == key })?.value
    }
}
