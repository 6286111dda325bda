/// A parsed JSON value that remembers where it stood in its file, so diagnostics can point at it.
struct JSONValue: Sendable {
    /// The value's kind and content.
    enum Kind: Sendable {
        case object([Member])
        case array([JSONValue])
        case string(String)
        case number(Double, isInteger: Bool)
        case bool(Bool)
        case null
    }

    /// One `"key": value` pair of an object, in file order.
    struct Member: Sendable {
        let key: String
        let keyLocation: ManifestDiagnostic.Location
        let value: JSONValue
    }

    let kind: Kind
    /// Where the value starts.
    let location: ManifestDiagnostic.Location
    /// The value's bytes in the source, so a sub-tree can be handed to `JSONDecoder` unchanged.
    let byteRange: Range<Int>

    /// The JSON type name used in "expected X, found Y" messages.
    var typeName: String {
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
    static func comparesKeysInOrder(_ members: [Member]) -> Bool {
        guard members.count <= 16 else { return false }
        // Each key read in place through the buffer: `allSatisfy` over the array copied every member, the
        // references in its value with it.
        return members.withUnsafeBufferPointer { members in
            members.indices.allSatisfy { ASCIIText.isASCII(members[$0].key) }
        }
    }

    /// Finds the members of an object whose key an earlier member already has: few ASCII keys are compared in
    /// order, others hashed (``comparesKeysInOrder(_:)``). Ask for the members in order, each once.
    struct RepeatedKeys {
        private let members: [Member]
        private var seen: Set<String>?

        init(_ members: [Member]) {
            self.members = members
            seen = JSONValue.comparesKeysInOrder(members) ? nil : []
        }

        /// Whether the member at `index` repeats the key of an earlier one.
        mutating func isRepeated(at index: Int) -> Bool {
            let key = members[index].key
            guard seen != nil else { return members[..<index].contains { $0.key == key } }
            return seen?.insert(key).inserted == false
        }
    }

    /// The member named `key`, if this is an object that has one (the last, if repeated).
    func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.last(where: { $0.key == key })?.value
    }
}
